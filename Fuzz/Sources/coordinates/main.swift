import FuzzSupport

// The bundled places are read before the first input, not inside it.
_ = GoTo.gazetteer
runFuzzer(fuzzCoordinates)

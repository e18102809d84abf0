import FuzzSupport

// The bundled places and map are read before the first input, not inside it.
AppSession.prepare()
runFuzzer(fuzzApp)

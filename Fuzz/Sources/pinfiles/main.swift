import FuzzSupport

runFuzzer(fuzzPinFiles)

import FuzzSupport

runFuzzer(fuzzJPEG)

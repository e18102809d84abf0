import FuzzSupport

runFuzzer(fuzzSettings)

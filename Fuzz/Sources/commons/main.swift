import FuzzSupport

runFuzzer(fuzzCommons)

import FuzzSupport

runFuzzer(fuzzTerminal)

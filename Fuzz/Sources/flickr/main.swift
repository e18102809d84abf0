import FuzzSupport

runFuzzer(fuzzFlickr)

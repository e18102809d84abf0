// Nothing here: the header declares a function of libclang_rt.fuzzer.

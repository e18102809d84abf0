// libFuzzer's own driver (in the toolchain's libclang_rt.fuzzer, linked by -sanitize=fuzzer).
// SwiftPM gives every executable a main of its own, which hides libFuzzer's: each target's main
// calls this instead, with the command line libFuzzer would have read.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*test_one_input)(const uint8_t *data, size_t size));

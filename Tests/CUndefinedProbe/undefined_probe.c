#include "undefined_probe.h"

// Signed overflow when a + b does not fit in an int: undefined in C, reported by -fsanitize=undefined.
int vt_undefined_probe_add(int a, int b) { return a + b; }

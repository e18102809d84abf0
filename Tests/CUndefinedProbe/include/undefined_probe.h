// The UndefinedBehaviorSanitizer probe (docs/reliability.md, "Sanitizers"): C code with undefined
// behaviour on purpose, so the sanitized test build proves that the sanitizer is compiled into the C
// it builds and that its report fails the check. Not part of the product.
int vt_undefined_probe_add(int a, int b);

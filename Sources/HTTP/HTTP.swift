// The HTTP module; see docs/architecture.md.

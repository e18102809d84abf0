// The PhotoSources module; see docs/architecture.md.

// The AlbumMachine module; see docs/architecture.md.

"""Thin applications over the core: each is a use of verify/runtime plus its own I/O."""

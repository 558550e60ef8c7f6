// Module LMDB: see docs/design.md.

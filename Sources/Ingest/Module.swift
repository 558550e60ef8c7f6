// Module Ingest: see docs/design.md.

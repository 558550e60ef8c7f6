// Module Query: see docs/design.md.

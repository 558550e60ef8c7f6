// Module Media: see docs/design.md.

// Module CAS: see docs/design.md.

// Module Verify: see docs/design.md.

// Module CaptureFormat: see docs/design.md.

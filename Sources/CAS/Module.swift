// `ContentID` and the byte sources were this module's; they live in `Ground` now, re-exported
// so that every client of the store keeps seeing them.
@_exported import Ground

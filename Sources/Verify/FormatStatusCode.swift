import C2PA

/// Status codes and explanations the formats of issue 16 added, in one place (for the project's
/// single status-code table). Specification codes are c2pa-rs's strings; the others are ours.
public enum FormatStatusCode {
    /// Ours, failure: the carrier's own checksum (PNG `caBX` CRC-32) does not match. The data
    /// hash excludes the whole carrier, so nothing else would notice; as `cose.padNotZero`, it
    /// keeps the malleable set to what c2pa-rs's layout forces (docs/verify.md, Malleability).
    public static let carrierChecksumMismatch = "container.crcMismatch"
    /// Specification, informational: a `c2pa.hash.data` with more than one exclusion (c2pa-rs
    /// `ASSERTION_DATAHASH_ADDITIONAL_EXCLUSIONS`; its TIFF writer excludes the C2PA entry's count).
    public static let dataHashAdditionalExclusions = "assertion.dataHash.additionalExclusionsPresent"
    /// The explanation of `general.error` for a file no container reader knows.
    public static let unsupportedExplanation =
        "not a format this verifier reads (JPEG, ISO BMFF, PNG, RIFF WebP/WAV/AVI, TIFF/DNG, GIF, SVG, JPEG XL, MP3, FLAC, PDF)"
}

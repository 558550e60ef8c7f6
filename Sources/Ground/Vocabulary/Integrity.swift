/// What the C2PA checks say about a file's bytes (docs/verify.md). Raw values are the words of
/// every report, index entry, query filter and export.
public enum Integrity: String, Sendable, Codable, CaseIterable, CodingKeyRepresentable {
    /// Claim signature and every hash match.
    case intact
    /// A signature or a hash does not match, or a referenced assertion is gone.
    case tampered
    /// No manifest store.
    case unsigned
    /// A manifest store that cannot be read.
    case malformed
}

/// Whether the signer's chain ends in a trust anchor the archive holds.
public enum Trust: String, Sendable, Codable, CaseIterable, CodingKeyRepresentable {
    case trusted, untrusted
}

/// What a capture is: from its signed record, else its container, else `unknown`. `audio`
/// (WAV, MP3, FLAC, M4A) and `document` (PDF) come only from the container (issue 16).
public enum MediaKind: String, Sendable, Codable, CaseIterable, CodingKeyRepresentable {
    case still, video, audio, document, unknown
}

// Interpolated into text, a value prints its report word (its raw value).
extension Integrity: CustomStringConvertible { public var description: String { rawValue } }
extension Trust: CustomStringConvertible { public var description: String { rawValue } }
extension MediaKind: CustomStringConvertible { public var description: String { rawValue } }

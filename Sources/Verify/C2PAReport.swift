import Foundation
import Ground

/// The C2PA verdict on one file: the specification's status codes in success / informational /
/// failure lists, rolled up into integrity and signer trust.
public struct C2PAReport: Codable, Sendable, Equatable {
    /// `intact`, `tampered`, `unsigned`, `malformed` (the shared vocabulary, `Ground.Integrity`).
    public typealias Integrity = Ground.Integrity
    /// `trusted`, `untrusted` (`Ground.Trust`).
    public typealias Trust = Ground.Trust

    public struct Status: Codable, Sendable, Equatable {
        public var code: String
        public var url: String?
        public var explanation: String?
        public init(code: String, url: String? = nil, explanation: String? = nil) {
            self.code = code
            self.url = url
            self.explanation = explanation
        }
    }

    public struct Signer: Codable, Sendable, Equatable {
        /// SHA-256 of the leaf's SubjectPublicKeyInfo DER.
        public var keyFingerprint: ContentID
        public var subject: String
        public var issuer: String
        public var algorithm: String?
    }

    public struct Timestamp: Codable, Sendable, Equatable {
        /// `validated` (trusted TSA, imprint ok), `untrusted` (imprint ok, TSA not trusted),
        /// `mismatch` (imprint or CMS signature wrong), `malformed`, `absent`.
        public var state: String
        public var genTime: Date?
        /// `sigTst` or `sigTst2`.
        public var header: String?
    }

    public var integrity: Integrity
    public var trust: Trust
    public var success: [Status] = []
    public var informational: [Status] = []
    public var failure: [Status] = []
    /// Container format read (`ContainerFormat`: `jpeg`, `bmff`, `png`, `webp`, `wav`, `avi`,
    /// `riff`, `tiff`, `dng`, `gif`, `svg`, `jxl`, `mp3`, `flac`, `pdf`), or nil.
    public var container: String?
    /// What the container says the asset is: `still`, `video`, `audio`, `document`, `unknown`; nil
    /// when the container could not be read.
    public var kind: MediaKind?
    public var activeManifest: String?
    public var claimVersion: Int?
    /// SHA-256 of the active claim's exact bytes.
    public var claimSHA256: ContentID?
    public var signer: Signer?
    public var timestamp: Timestamp
    /// Why the store could not be read (malformed) or found (unsigned), when that is the verdict.
    public var reason: String?
    /// Set when a verified claim (active or ingredient) has no usable COSE_Sign1 or signing
    /// certificate: c2pa-rs's Reader fails there, so the file is `malformed` (C2PAValidator).
    var signatureUnusable: String?

    public init(integrity: Integrity, trust: Trust = .untrusted, timestamp: Timestamp = Timestamp(state: "absent")) {
        self.integrity = integrity
        self.trust = trust
        self.timestamp = timestamp
    }

    /// Every code across the three lists.
    public var codes: [String] { (success + informational + failure).map(\.code) }
    public var failureCodes: [String] { failure.map(\.code) }
}

extension C2PAReport.Timestamp {
    public init(state: String) { self.init(state: state, genTime: nil, header: nil) }
}

import C2PA
import Crypto
import Foundation
import Ground

/// Verifies the C2PA manifest of a file the way c2pa-rs does: container (every format of
/// `ContainerFormat`, sniffed) →
/// store → active manifest → claim → COSE signature (leaf key) → every hashed URI → the hard
/// binding (data or BMFF hash, one streamed pass) → signer trust and timestamp → the ingredient
/// manifests, recursively (`C2PAValidator+Ingredients.swift`). One failing
/// check never stops the others; the report's rollups are computed from the codes at the end.
///
/// Signer anchors and TSA anchors are separate lists. Chain validations are cached per
/// (chain, time) so a batch of files from one device validates its chain once. Thread-safe.
public final class C2PAValidator: Sendable {
    public let signerAnchors: TrustAnchors
    public let tsaAnchors: TrustAnchors
    private let chainCache = Locked<[String: ChainValidation]>([:])
    let certificateCache = Locked<[[UInt8]: ParsedCertificate]>([:])

    /// Codes of our own (not in the C2PA specification). `cose.padNotZero`: a non-zero COSE pad,
    /// a failure (`tampered`) in a JPEG, informational in every other format but BMFF (not
    /// checked there). `container.merkleOffsetUnexpected`: a non-zero BMFF merkle offset with no
    /// merkle hashing, a failure.
    public static let padNotZero = StatusCode.cosePadNotZero
    public static let merkleOffsetUnexpected = StatusCode.containerMerkleOffsetUnexpected
    /// Ours, informational: the carrier's own checksum (PNG `caBX` CRC-32) does not match. The
    /// data hash excludes the whole carrier and c2pa-rs does not read the CRC, so the file's
    /// verdict is c2pa-rs's; the finding stays in the report (docs/verify.md, Malleability).
    public static let carrierChecksumMismatch = StatusCode.containerCrcMismatch
    /// Ours, informational: the claim box (found by its `c2cl` type, as c2pa-rs does) has a
    /// label other than `c2pa.claim` / `c2pa.claim.v2`; c2pa-rs logs it and reports nothing.
    public static let claimLabelUnrecognized = StatusCode.claimLabelUnrecognized
    /// The explanation of `general.error` for a file no container reader knows.
    public static let unsupportedExplanation =
        "not a format this verifier reads (JPEG, ISO BMFF, PNG, RIFF WebP/WAV/AVI, TIFF/DNG, GIF, SVG, JPEG XL, MP3, FLAC, PDF)"

    /// Each anchor's validity window, read once (cache keys compare times against them).
    let signerAnchorWindows: [ValidityWindow]
    let tsaAnchorWindows: [ValidityWindow]

    public init(signerAnchors: TrustAnchors = .none, tsaAnchors: TrustAnchors = .none) {
        self.signerAnchors = signerAnchors
        self.tsaAnchors = tsaAnchors
        signerAnchorWindows = signerAnchors.certificates.map(ValidityWindow.init)
        tsaAnchorWindows = tsaAnchors.certificates.map(ValidityWindow.init)
    }

    /// Verifies the file at `path`. Throws only when it cannot be opened.
    public func validate(path: String) throws(ByteSourceError) -> C2PAReport {
        validate(source: try FileByteSource(path: path))
    }

    /// Verifies the bytes of `source`.
    public func validate(source: some ByteSource) -> C2PAReport {
        validate(source: source, collecting: []).report
    }

    /// Verifies the bytes of `source` and hands back the CBOR content bytes of the active
    /// manifest's assertions named in `labels` (as stored, whether or not their hashed URI
    /// matched: the report says that). Used to read the app's own assertions in the same pass.
    public func validate(source: some ByteSource, collecting labels: Set<String>)
        -> (report: C2PAReport, assertions: [String: [UInt8]]) {
        var collected: [String: [UInt8]] = [:]
        let r = validate(source: source, labels: labels, collected: &collected)
        return (r, collected)
    }

    private func validate(source: some ByteSource, labels: Set<String>, collected: inout [String: [UInt8]]) -> C2PAReport {
        var r = C2PAReport(integrity: .malformed)
        let read: AssetContainer.Read
        do { read = try AssetContainer.read(source) } catch {
            if error == .unsupported {
                r.reason = "unsupported container"
                r.failure.append(.init(code: StatusCode.generalError, explanation: C2PAValidator.unsupportedExplanation))
            } else {
                r.container = (try? source.read(at: 0, count: ContainerFormat.sniffLength)).flatMap(ContainerFormat.sniff)?.rawValue
                r.reason = error.code
                r.failure.append(.init(code: StatusCode.claimMalformed, explanation: "container: \(error.code)"))
            }
            return r
        }
        r.container = read.format.rawValue
        r.kind = read.kind
        guard case .found(let location) = read.lookup else {
            r.integrity = .unsigned
            if case .absent(let why) = read.lookup {
                r.reason = why
                if why == "none" { noteRemoteReference(read, source: source, into: &r) }
            }
            return r
        }
        validateStore(location, source: source, boxes: read.boxes, into: &r, labels: labels, collected: &collected)
        if let why = r.signatureUnusable, r.integrity != .malformed {
            r.integrity = .malformed
            r.reason = why
        }
        return r
    }

    /// The trust verdict for a chain at a time, cached.
    func chainValidation(_ chain: [ParsedCertificate], at time: Date?) -> ChainValidation {
        guard let leaf = chain.first?.certificate else { return .untrusted(reason: "no certificate", code: "noCertificate") }
        let certs = chain.map(\.certificate)
        let key = "s:" + C2PAValidator.cacheKey(chain.map(\.window), fingerprints: chain.map(\.sha256Fingerprint), at: time,
                                                   anchors: signerAnchorWindows)
        if let hit = chainCache.withLock({ $0[key] }) { return hit }
        let v = validateChain(leaf: leaf, intermediates: Array(certs.dropFirst()), anchors: signerAnchors, at: time, purpose: .signing)
        remember(key, v)
        return v
    }

    /// The TSA chain verdict (leaf + the token's other certificates at genTime), cached the same way.
    func tsaChainValidation(_ leaf: Certificate, _ intermediates: [Certificate], at time: Date) -> ChainValidation {
        let chain = [leaf] + intermediates
        let key = "t:" + C2PAValidator.cacheKey(chain.map(ValidityWindow.init), fingerprints: chain.map(\.sha256Fingerprint), at: time,
                                                anchors: tsaAnchorWindows)
        if let hit = chainCache.withLock({ $0[key] }) { return hit }
        let v = validateChain(leaf: leaf, intermediates: intermediates, anchors: tsaAnchors, at: time, purpose: .timestamping)
        remember(key, v)
        return v
    }

    /// Bounded: exact-time keys (certificates outside their window) could otherwise pile up.
    private func remember(_ key: String, _ v: ChainValidation) {
        chainCache.withLock {
            if $0.count >= 4096 { $0.removeAll() }
            $0[key] = v
        }
    }

    /// Cache key of a chain validation. The verdict depends on the time only through which
    /// certificates are inside their validity window at that time (chain and anchors): any two
    /// times with the same pattern give the same verdict, so they share one key (a batch of
    /// captures from one device checks its chain once, a P-256 verify ~60 µs per certificate
    /// saved per file). No time (no trusted timestamp: no validity check) has its own key.
    static func cacheKey(_ chain: [ValidityWindow], fingerprints: [String], at time: Date?, anchors: [ValidityWindow]) -> String {
        let certs = fingerprints.joined(separator: ":")
        guard let time else { return certs + "@-" }
        func bits(_ w: [ValidityWindow]) -> String { String(w.map { $0.contains(time) ? "1" : "0" }) }
        return certs + "@" + bits(chain) + "|" + bits(anchors)
    }
}

/// A certificate's [notBefore, notAfter], read once.
struct ValidityWindow: Sendable {
    let notBefore: Date?
    let notAfter: Date?
    init(_ c: Certificate) {
        notBefore = c.notBefore
        notAfter = c.notAfter
    }
    func contains(_ t: Date) -> Bool {
        guard let nb = notBefore, let na = notAfter else { return false }
        return nb <= t && t <= na
    }
}

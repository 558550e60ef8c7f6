import Crypto
import Ground

/// Writes a signed C2PA manifest store into a JPEG or an MP4 with the placeholder-then-final
/// flow: the store is built once with a zero hash and a padded signature placeholder so its size
/// (and so the hash exclusion) is known, embedded, the asset hashed, and the final store — same
/// length — written over the placeholder.
///
/// Layout (as c2pa-rs writes it): `c2pa` store → `c2ma` manifest `urn:c2pa:<uuid>` →
/// `c2pa.assertions` (each a `cbor` superbox), `c2pa.claim.v2`, `c2pa.signature` (COSE_Sign1).
public struct ManifestBuilder {
    public struct Signer {
        public var algorithm: COSEAlgorithm
        /// DER certificates, leaf first.
        public var certificateChain: [[UInt8]]
        /// Sig_structure bytes → raw signature.
        public var sign: ([UInt8]) throws -> [UInt8]
        /// `sigTst2` imprint input → RFC 3161 TimeStampToken DER; nil for no timestamp.
        public var timestamp: (([UInt8]) throws -> [UInt8])?
        /// Bytes reserved beyond the first signature's length for a later, longer one (timestamp).
        public var reserveSlack: Int
        /// A fixed COSE_Sign1 size to reserve; nil = one probe signing (signer and timestamper
        /// called once more) + `reserveSlack`. Setting it saves the probe in bulk generation.
        public var fixedReserve: Int?
        /// Where the certificate chain goes (older forms for tests; default protected label 33).
        public var chainPlacement: COSESign1.ChainPlacement = .protected
        /// `sigTst2` (default) or the v1 `sigTst` header, whose imprint covers the claim.
        public var timestampHeader: TimestampVersion = .v2

        public init(algorithm: COSEAlgorithm, certificateChain: [[UInt8]], reserveSlack: Int = 64,
                    sign: @escaping ([UInt8]) throws -> [UInt8], timestamp: (([UInt8]) throws -> [UInt8])? = nil) {
            self.algorithm = algorithm
            self.certificateChain = certificateChain
            self.sign = sign
            self.timestamp = timestamp
            self.reserveSlack = reserveSlack
        }
    }

    public var manifestLabel: String
    public var instanceID: String
    public var generatorName: String
    public var generatorVersion: String?
    public var title: String?
    /// Assertions other than the hash assertion, in order: (label, CBOR content).
    public var assertions: [(label: String, content: CBOR)]
    public var signer: Signer
    /// How the claim's hashed URIs name the assertions (`ManifestBuilder+BMFF.swift`).
    public var assertionURIForm: AssertionURIForm = .relative
    /// 2 (`c2pa.claim.v2`, default) or 1 (`c2pa.claim`, the C2PA 1.x form, for tests).
    public var claimVersion = 2
    /// The claim's `alg`; nil leaves it out (a malformed claim, for tests).
    public var claimAlgorithm: String? = "sha256"
    /// Hash each assertion's content box only, as pre-1.0 (pre-release) writers did, instead
    /// of the superbox payload; for tests (c2pa-rs refuses such a store).
    public var prereleaseHashing = false

    public init(manifestLabel: String, instanceID: String, generatorName: String, generatorVersion: String? = nil,
                title: String? = nil, assertions: [(label: String, content: CBOR)], signer: Signer) {
        self.manifestLabel = manifestLabel
        self.instanceID = instanceID
        self.generatorName = generatorName
        self.generatorVersion = generatorVersion
        self.title = title
        self.assertions = assertions
        self.signer = signer
    }

    /// The store bytes for a given hash assertion, signed (or a zero placeholder of `signatureSize`).
    func store(hashAssertion: (String, CBOR), signatureSize: Int, placeholder: Bool) throws(BuildError) -> [UInt8] {
        let manifest = try manifestNode(type: C2PABoxType.manifest, assertions: [hashAssertion] + assertions.map { ($0.label, $0.content) },
                                        signatureSize: signatureSize, placeholder: placeholder)
        return JUMBFNode.superbox(typeUUID: C2PABoxType.store, label: "c2pa", children: [manifest]).encoded()
    }

    /// One manifest superbox of JUMBF type `type` (`c2ma` standard, `c2um` update): the
    /// assertions, a v2 claim referencing each, and the claim signature (padded to
    /// `signatureSize` when given, or a zero placeholder of that size).
    func manifestNode(type: [UInt8], assertions all: [(String, CBOR)], signatureSize: Int?,
                      placeholder: Bool) throws(BuildError) -> JUMBFNode {
        let boxes = all.map { JUMBFNode.superbox(typeUUID: C2PABoxType.cbor, label: $0.0, children: [.cbor($0.1)]) }
        let refs = zip(all, boxes).map { a, b in
            HashedURI(url: assertionURIForm == .relative ? "self#jumbf=c2pa.assertions/\(a.0)"
                                                         : "self#jumbf=c2pa/\(manifestLabel)/c2pa.assertions/\(a.0)",
                      hash: MessageDigest.sha256(prereleaseHashing ? a.1.encoded() : Array(b.encoded().dropFirst(8))))
        }
        let claimBytes = encodedClaim(refs)
        let sig: [UInt8]
        if placeholder {
            sig = [UInt8](repeating: 0, count: signatureSize ?? 0)
        } else {
            do {
                sig = try COSESign1.sign(payload: claimBytes, algorithm: signer.algorithm,
                                         certificateChain: signer.certificateChain, reservedSize: signatureSize,
                                         chainPlacement: signer.chainPlacement, timestampHeader: signer.timestampHeader,
                                         signer: signer.sign, timestamper: signer.timestamp).encoded()
            } catch { throw .signature(error) }
        }
        return JUMBFNode.superbox(typeUUID: type, label: manifestLabel, children: [
            .superbox(typeUUID: C2PABoxType.assertionStore, label: "c2pa.assertions", children: boxes),
            .superbox(typeUUID: C2PABoxType.claim, label: claimVersion == 1 ? "c2pa.claim" : "c2pa.claim.v2", children: [.content(type: "cbor", payload: claimBytes)]),
            .superbox(typeUUID: C2PABoxType.signature, label: "c2pa.signature", children: [.content(type: "cbor", payload: sig)]),
        ])
    }

    func encodedClaim(_ refs: [HashedURI]) -> [UInt8] {
        if claimVersion == 1 {
            var claim = ClaimV1Builder(instanceID: instanceID, claimGenerator: generatorName, format: "image/jpeg",
                                       manifestLabel: manifestLabel, assertions: refs)
            claim.title = title
            claim.alg = claimAlgorithm
            return claim.encoded()
        }
        var claim = ClaimV2Builder(instanceID: instanceID, generatorName: generatorName, generatorVersion: generatorVersion,
                                   manifestLabel: manifestLabel, createdAssertions: refs)
        claim.title = title
        claim.alg = claimAlgorithm
        return claim.encoded()
    }

    /// Size to reserve for the COSE_Sign1: one real signing's length plus the slack.
    func signatureReserve() throws(BuildError) -> Int {
        if let fixed = signer.fixedReserve { return fixed }
        do {
            let probe = try COSESign1.sign(payload: [0], algorithm: signer.algorithm, certificateChain: signer.certificateChain,
                                           chainPlacement: signer.chainPlacement, timestampHeader: signer.timestampHeader,
                                           signer: signer.sign, timestamper: signer.timestamp)
            return probe.encoded().count + signer.reserveSlack
        } catch { throw .signature(error) }
    }

    /// `jpeg` (holding no store) signed with a `c2pa.hash.data` assertion whose one exclusion is
    /// the APP11 segments.
    public func signJPEG(_ jpeg: [UInt8]) throws(BuildError) -> [UInt8] {
        let reserve = try signatureReserve()
        let start: Int
        do { start = try JPEGContainer.insertionOffset(in: jpeg) } catch { throw .container(error) }
        func hashAssertion(_ length: Int, _ hash: [UInt8]) -> (String, CBOR) {
            (DataHashAssertion.label, DataHashAssertion(exclusions: [.init(start: UInt64(start), length: UInt64(length))],
                                                        hash: hash, pad: []).cbor)
        }
        var length = 0
        var placeholder: [UInt8] = []
        for _ in 0..<8 {
            placeholder = try store(hashAssertion: hashAssertion(length, [UInt8](repeating: 0, count: 32)),
                                    signatureSize: reserve, placeholder: true)
            let l = JPEGContainer.segmentsLength(storeLength: placeholder.count)
            if l == length { break }
            length = l
        }
        do {
            let (embedded, range) = try JPEGContainer.embed(placeholder, into: jpeg)
            guard range == start..<(start + length) else { throw BuildError.layoutUnstable }
            let hash = try DataHashAssertion(exclusions: [.init(start: UInt64(start), length: UInt64(length))], hash: [])
                .computeHash(over: MemoryByteSource(embedded), algorithm: .sha256)
            let final = try store(hashAssertion: hashAssertion(length, hash), signatureSize: reserve, placeholder: false)
            return try JPEGContainer.replace(final, in: embedded)
        } catch let e as BuildError { throw e } catch let e as ContainerError { throw .container(e) }
        catch let e as HashAssertionError { throw .hash(e) } catch { throw .layoutUnstable }
    }

    /// `mp4` (holding no store) signed with a `c2pa.hash.bmff.v2` (or v3, or v1) assertion with
    /// the default exclusions; the store goes in a `uuid` box after `ftyp`, chunk offsets fixed.
    public func signMP4(_ mp4: [UInt8], bmffVersion: Int = 2) throws(BuildError) -> [UInt8] {
        try signMP4(mp4, bmffHash: BMFFHashAssertion(version: bmffVersion, hash: nil))
    }

    public enum BuildError: Error, Equatable {
        case signature(COSEError)
        case container(ContainerError)
        case hash(HashAssertionError)
        case layoutUnstable
        /// An update manifest needs a store with an active manifest to be the parent.
        case noParentManifest

        public var code: String {
            switch self {
            case .signature(let e): e.code
            case .container(let e): e.code
            case .hash(let e): e.code
            case .layoutUnstable: StatusCode.buildLayoutUnstable
            case .noParentManifest: StatusCode.buildNoParentManifest
            }
        }
    }
}

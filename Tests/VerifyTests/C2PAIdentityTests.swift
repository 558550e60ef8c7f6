import C2PA
import Crypto
import Foundation
import Ground
import TestLiterals
import Testing
@testable import Verify

/// CAWG identity assertions (`cawg.identity`) made by our writers, one per fault, checked
/// against our expected codes and, when the venv has c2pa-python, against c2pa-rs's state and
/// failure codes on the same file.
@Suite struct C2PAIdentityTests {
    enum Fault: String, CaseIterable, Sendable {
        case none, pad1, pad2, duplicate, notInClaim, noHardBinding, unknownSigType, badSignature
        case icaJWK, icaWeb, icaSignature, icaPayload, icaContentType, icaNoValidFrom, icaFutureValidFrom, icaExpired, icaStamp
        /// The signer payload under another key: the assertion does not deserialize.
        case undecodable
    }

    /// The identity signer: its own CA, which is not a signer anchor (c2pa-rs checks CAWG X.509
    /// credentials against a separate list, empty by default, so both sides say untrusted).
    static let identity = Result { () throws -> (key: PrivateKey, chain: [[UInt8]], icaKey: PrivateKey) in
        let caKey = try PrivateKey.generate(.ec(.p256))
        let ca = try CertificateBuilder(commonName: "Identity CA", organization: "Exhibit Identity", serial: 9001,
                                        notBefore: Date(timeIntervalSinceNow: -86_400), notAfter: Date(timeIntervalSinceNow: 86_400 * 60),
                                        extensions: CertificateBuilder.rootCAExtensions).selfSigned(key: caKey)
        let key = try PrivateKey.generate(.ec(.p256))
        let leaf = try CertificateBuilder(commonName: "Identity Signer", organization: "Exhibit Identity", serial: 9002,
                                          notBefore: Date(timeIntervalSinceNow: -86_400), notAfter: Date(timeIntervalSinceNow: 86_400 * 30),
                                          extensions: CertificateBuilder.c2paSignerExtensions)
            .issued(publicKey: key.publicKey, issuer: ca, issuerKey: caKey)
        return (key, [leaf.der, ca.der], try PrivateKey.generate(.ed25519))
    }

    static let hashData = "self#jumbf=c2pa.assertions/c2pa.hash.data"
    static let other = "self#jumbf=c2pa.assertions/org.test.assertion"

    /// Two passes: the identity assertion's size does not depend on the hashes it carries, so
    /// the second manifest has the first one's layout and the hard binding's hash is final.
    func identityJPEG(_ fault: Fault) throws -> [UInt8] {
        let t = C2PAValidatorTests()
        let media = try t.media("jpg")
        func build(_ hashes: [String: [UInt8]]) throws -> [UInt8] {
            var b = try t.builder(timestamp: false)
            b.assertions.append(("org.test.assertion", .textMap([("note", .text("referenced by the identity"))])))
            let ia = try assertion(fault, hashes)
            var content = try CBOR(decoding: ia.encoded())
            if fault == .undecodable, case .map(var pairs) = content {
                pairs[0].key = .text("not_the_signer_payload")
                content = .map(pairs)
            }
            b.assertions.append(("cawg.identity", content))
            return try b.signJPEG(media)
        }
        let placeholder = [Self.hashData: [UInt8](repeating: 0, count: 32), Self.other: [UInt8](repeating: 0, count: 32)]
        let first = try build(placeholder)
        let refs = try claim(of: first).assertionReferences
        var hashes: [String: [UInt8]] = [:]
        for url in [Self.hashData, Self.other] { hashes[url] = try #require(refs.first { $0.url == url }).hash }
        let second = try build(hashes)
        // The layout held: the hard binding in the final file is the one referenced.
        #expect(try claim(of: second).assertionReferences.first { $0.url == Self.hashData }?.hash == hashes[Self.hashData])
        return second
    }

    func claim(of jpeg: [UInt8]) throws -> Claim {
        let lookup = try JPEGContainer.manifest(in: MemoryByteSource(jpeg))
        let location = try #require({ if case .found(let l) = lookup { l } else { nil } }())
        let manifest = try #require(try ManifestStore(parsing: location.storeBytes).activeManifest)
        return try Claim(label: try #require(manifest.claimBox?.label), bytes: try #require(manifest.claimBytes))
    }

    func assertion(_ fault: Fault, _ hashes: [String: [UInt8]]) throws -> IdentityAssertion {
        let id = try Self.identity.get()
        var refs = [HashedURI(url: Self.hashData, alg: "sha256", hash: hashes[Self.hashData] ?? []),
                    HashedURI(url: Self.other, alg: "sha256", hash: hashes[Self.other] ?? [])]
        switch fault {
        case .duplicate: refs.append(refs[1])
        case .notInClaim: refs.append(HashedURI(url: "self#jumbf=c2pa.assertions/org.test.absent", alg: "sha256", hash: [UInt8](repeating: 7, count: 32)))
        case .noHardBinding: refs.removeFirst()
        default: break
        }
        let sigType: String
        switch fault {
        case .unknownSigType: sigType = "cawg.unknown.sig_type"
        case .icaJWK, .icaWeb, .icaSignature, .icaPayload, .icaContentType, .icaNoValidFrom, .icaFutureValidFrom, .icaExpired, .icaStamp:
            sigType = C2PAValidator.icaSigType
        default: sigType = C2PAValidator.x509SigType
        }
        var ia = IdentityAssertion(referencedAssertions: refs, sigType: sigType, signature: [],
                                   pad1: [UInt8](repeating: 0, count: 24), pad2: fault == .pad2 ? [0, 0, 5] : nil)
        if fault == .pad1 { ia.pad1[3] = 1 }
        if sigType == C2PAValidator.icaSigType {
            ia.signature = try credential(fault, signerPayload: ia)
        } else {
            let cose = try COSESign1.sign(payload: ia.signerPayloadBytes, algorithm: .es256, certificateChain: id.chain,
                                          signer: { try id.key.sign($0, algorithm: .es256) })
            ia.signature = cose.encoded()
            if fault == .badSignature { ia.signature[ia.signature.count - 10] ^= 0x01 }
        }
        return ia
    }

    /// An identity claims aggregation credential: a tagged COSE_Sign1 (EdDSA, content type
    /// application/vc) embedding a VC whose c2paAsset is the signer payload (hashes as the
    /// base64 text; c2pa-rs reads the bytes of that text). The did:jwk is padded base64url, which
    /// c2pa-rs requires.
    func credential(_ fault: Fault, signerPayload ia: IdentityAssertion) throws -> [UInt8] {
        let key = try Self.identity.get().icaKey
        let x = Array(key.publicKey.spkiDER.suffix(32))
        let jwk = #"{"kty":"OKP","crv":"Ed25519","x":"\#(Self.base64URL(x))"}"#
        let issuer = fault == .icaWeb ? "did:web:identity.example.invalid" : "did:jwk:" + Self.base64URL(Array(jwk.utf8), padded: true)
        var refs = ia.referencedAssertions
        if fault == .icaPayload { refs[1].url = "self#jumbf=c2pa.assertions/org.test.elsewhere" }
        let assets = refs.map { r -> [String: Any] in
            ["url": r.url, "alg": r.alg ?? "sha256", "hash": Data(r.hash).base64EncodedString()]
        }
        var vc: [String: Any] = [
            "@context": ["https://www.w3.org/ns/credentials/v2", "https://cawg.io/identity/1.1/ica/context/"],
            "type": ["VerifiableCredential", "IdentityClaimsAggregationCredential"],
            "issuer": issuer,
            "credentialSubject": [
                "verifiedIdentities": [["type": "cawg.social_media", "username": "exhibit", "verifiedAt": "2025-01-01T00:00:00Z",
                                        "provider": ["id": "https://social.example", "name": "Example Social"]]],
                "c2paAsset": ["referenced_assertions": assets, "sig_type": ia.sigType],
            ],
        ]
        switch fault {
        case .icaNoValidFrom: break
        case .icaFutureValidFrom: vc["validFrom"] = "2099-01-02T03:04:05Z"
        case .icaExpired: vc["validFrom"] = "2025-01-02T03:04:05Z"; vc["validUntil"] = "2025-06-01T00:00:00Z"
        default: vc["validFrom"] = "2025-01-02T03:04:05Z"
        }
        // Foundation escapes "/" (base64 text holds some): unescaped, the length is fixed.
        let json = String(decoding: try JSONSerialization.data(withJSONObject: vc, options: [.sortedKeys]), as: UTF8.self)
        let payload = Array(json.replacingOccurrences(of: "\\/", with: "/").utf8)
        let protected = CBOR.map([CBORPair(.int(1), .int(COSEAlgorithm.ed25519.rawValue)), CBORPair(.int(3), .text(fault == .icaContentType ? "application/json" : "application/vc"))]).encoded()
        let tbs = CBOR.array([.text("Signature1"), .bytes(protected), .bytes([]), .bytes(payload)]).encoded()
        var sig = try key.sign(tbs, algorithm: .ed25519)
        if fault == .icaSignature { sig[5] ^= 0x01 }
        var unprotected: [CBORPair] = []
        if fault == .icaStamp {
            // A sigTst2 token over the signature (CounterSignature structure), from the test TSA;
            // a "pad" header keeps the header's size fixed whatever the token's DER length.
            let imprint = CBOR.array([.text("CounterSignature"), .bytes(protected), .bytes([]), .bytes(CBOR.bytes(sig).encoded())]).encoded()
            let token = try C2PAValidatorTests.pki.get().tsa.token(imprintOf: imprint, at: Date(), serial: 43)
            unprotected = [CBORPair(.text("sigTst2"), .textMap([("tstTokens", .array([.textMap([("val", .bytes(token))])]))])),
                           CBORPair(.text("pad"), .bytes([UInt8](repeating: 0, count: 4096 - token.count)))]
        }
        return CBOR.tagged(18, .array([.bytes(protected), .map(unprotected), .bytes(payload), .bytes(sig)])).encoded()
    }

    static func base64URL(_ b: [UInt8], padded: Bool = false) -> String {
        let text = Data(b).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        return padded ? text : text.replacingOccurrences(of: "=", with: "")
    }

    /// Our identity failure codes (the claim signer chains to the anchors: no other failure).
    static let expected: [Fault: (integrity: C2PAReport.Integrity, failures: Set<String>)] = [
        .none: (.intact, ["cawg.x509.credential.untrusted"]),
        .pad1: (.intact, ["cawg.identity.pad.invalid", "cawg.x509.credential.untrusted"]),
        .pad2: (.intact, ["cawg.identity.pad.invalid", "cawg.x509.credential.untrusted"]),
        .duplicate: (.intact, ["cawg.identity.assertion.duplicate", "cawg.x509.credential.untrusted"]),
        .notInClaim: (.intact, ["cawg.identity.assertion.mismatch", "cawg.x509.credential.untrusted"]),
        .noHardBinding: (.intact, ["cawg.identity.hard_binding_missing", "cawg.x509.credential.untrusted"]),
        .unknownSigType: (.intact, ["cawg.identity.sig_type.unknown"]),
        .badSignature: (.intact, ["cawg.x509.credential.untrusted", "cawg.x509.signature.mismatch"]),
        .icaJWK: (.intact, []),
        .icaWeb: (.tampered, ["cawg.ica.did_unavailable"]),
        .icaSignature: (.tampered, ["cawg.ica.signature_mismatch"]),
        .icaPayload: (.tampered, ["cawg.ica.signer_payload.mismatch"]),
        .icaContentType: (.tampered, ["cawg.ica.invalid_content_type"]),
        .icaNoValidFrom: (.tampered, ["cawg.ica.valid_from.missing"]),
        .icaFutureValidFrom: (.tampered, ["cawg.ica.valid_from.invalid"]),
        .icaExpired: (.tampered, ["cawg.ica.valid_until.invalid"]),
        .undecodable: (.tampered, ["assertion.required.missing"]),
        .icaStamp: (.intact, []),
    ]

    @Test(arguments: Fault.allCases)
    func fault(_ fault: Fault) throws {
        let t = C2PAValidatorTests()
        let pki = try C2PAValidatorTests.pki.get()
        let file = try identityJPEG(fault)
        let r = try t.validator().validate(source: MemoryByteSource(file))
        let want = try #require(Self.expected[fault])
        #expect(r.integrity == want.integrity, "\(fault): \(r.failure)")
        #expect(r.trust == .trusted)
        #expect(Set(r.failureCodes) == want.failures, "\(fault): \(r.failure)")
        let success = Set(r.success.map(\.code))
        let wellFormed = [Fault.none, .pad1, .pad2, .duplicate, .notInClaim, .noHardBinding].contains(fault)
        #expect(success.contains("cawg.x509.signature.validated") == wellFormed, "\(fault)")
        #expect(success.contains("cawg.identity.well-formed") == wellFormed, "\(fault)")
        #expect(success.contains("cawg.ica.time_stamp.validated") == (fault == .icaStamp), "\(fault)")
        // Without trusted ICA issuers a credential is never `credential_valid` (c2pa-rs).
        #expect(!success.contains("cawg.ica.credential_valid"))
        let info = Set(r.informational.map(\.code))
        #expect(info.contains("cawg.ica.untrusted_issuer") == [Fault.icaJWK, .icaPayload, .icaContentType, .icaNoValidFrom, .icaFutureValidFrom, .icaExpired, .icaStamp].contains(fault),
                "\(fault): \(r.informational)")
        // c2pa-rs on the same file: the same integrity (Invalid = tampered) and failure codes.
        // Its `Trusted` needs an empty failure list, so any identity failure shows as `Valid`;
        // our signer trust stays the claim signer's (docs/c2pa.md, CAWG identity).
        let agree = C2PAReferenceAgreementTests()
        if let ref = try agree.reference(file, mime: "image/jpeg", anchorsPEM: pki.root.pem) {
            print("identity \(fault): \(r.integrity) \(r.failureCodes) | c2pa-rs \(ref.state) \(ref.failure) \(ref.error ?? "")")
            let theirs: C2PAReport.Integrity = ref.state == "Invalid" ? .tampered : ["Valid", "Trusted"].contains(ref.state) ? .intact : .malformed
            #expect(r.integrity == theirs, "\(fault): ours \(r.integrity) \(r.failureCodes), c2pa-rs \(ref.state) \(ref.failure) \(ref.error ?? "")")
            #expect(ref.state == (r.failure.isEmpty ? "Trusted" : r.integrity == .intact ? "Valid" : "Invalid"), "\(fault): c2pa-rs \(ref.state)")
            #expect(Set(r.failureCodes) == Set(ref.failure), "\(fault): ours \(r.failureCodes), c2pa-rs \(ref.failure)")
            let ourOther = Set((r.success + r.informational).map(\.code).filter { $0.hasPrefix("cawg.") })
            #expect(ourOther == Set((ref.other ?? []).filter { $0.hasPrefix("cawg.") }), "\(fault): c2pa-rs \(ref.other ?? [])")
        }
    }

    @Test func parserRejectsMistypedFields() throws {
        let good = IdentityAssertion(referencedAssertions: [HashedURI(url: Self.hashData, hash: [1, 2])], sigType: "cawg.x509.cose",
                                     signature: [9], pad1: [0])
        #expect(try IdentityAssertion(parsing: good.encoded()) == good)
        let noPad = CBOR.textMap([("signer_payload", good.signerPayload), ("signature", .bytes([9]))]).encoded()
        #expect(throws: IdentityAssertionError.missingField("pad1")) { try IdentityAssertion(parsing: noPad) }
        let badRole = CBOR.textMap([("signer_payload", .textMap([("referenced_assertions", .array([])), ("sig_type", .text("x")),
                                                                 ("role", .text("creator"))])),
                                    ("signature", .bytes([])), ("pad1", .bytes([]))]).encoded()
        #expect(throws: IdentityAssertionError.badField("role")) { try IdentityAssertion(parsing: badRole) }
        #expect(throws: IdentityAssertionError.notAMap) { try IdentityAssertion(parsing: CBOR.array([]).encoded()) }
        #expect(throws: (any Error).self) { try IdentityAssertion(parsing: good.encoded() + [0]) }
    }
}

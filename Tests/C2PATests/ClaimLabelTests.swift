import C2PA
import Ground
import Testing

/// The claim box label read as c2pa-rs reads it (store.rs `from_jumbf`, claim.rs `from_value`,
/// labels.rs `parse_label`): the version comes from the CBOR, the label only bounds it. The
/// regression bytes are those of the store-flip set of docs/interop.md: the label
/// `c2qa.claim.v2` (one bit of `p` flipped) of c2pa-rs-signed HEIC, HEIF, AVIF and M4A files,
/// which c2pa-rs reads as Trusted.
@Suite struct ClaimLabelTests {
    static func v2Claim() -> [UInt8] {
        ClaimV2Builder(instanceID: "xmp.iid:1", generatorName: "test", manifestLabel: "urn:c2pa:1", createdAssertions: []).encoded()
    }

    static func v1Claim() -> [UInt8] {
        CBOR.textMap([
            ("claim_generator", .text("test")), ("signature", .text("self#jumbf=c2pa.signature")),
            ("assertions", .array([])), ("dc:format", .text("image/png")), ("instanceID", .text("xmp.iid:1")),
        ]).encoded()
    }

    @Test func labelVersionIsParseLabels() {
        #expect(Claim.labelVersion("c2pa.claim") == 1)
        #expect(Claim.labelVersion("c2pa.claim.v2") == 2)
        #expect(Claim.labelVersion("c2qa.claim.v2") == 2)
        #expect(Claim.labelVersion("c2pa.claim.v3__2") == 3)
        #expect(Claim.labelVersion("c2pa.claim.V2") == 1)
        #expect(Claim.labelVersion("c2pa.claim.v-2") == 1)
        #expect(Claim.labelVersion("c2pa.claim.v") == 1)
        #expect(Claim.labelVersion("v2") == 1)
        #expect(Claim.labelVersion("c2pa.claim.v99999999999999999999999") == 1)
    }

    @Test func recognizedLabels() {
        #expect(Claim.isRecognizedLabel("c2pa.claim"))
        #expect(Claim.isRecognizedLabel("c2pa.claim.v2"))
        #expect(Claim.isRecognizedLabel("c2pa.claim.v1"))
        #expect(!Claim.isRecognizedLabel("c2qa.claim.v2"))
        #expect(!Claim.isRecognizedLabel("c2pa.claim.v22"))
        #expect(!Claim.isRecognizedLabel("c2pa.claimx"))
    }

    /// The flipped label of the store-flip set: read as v2 from the CBOR.
    @Test func flippedLabelReadsTheCBORsVersion() throws {
        #expect(try Claim(label: "c2qa.claim.v2", bytes: Self.v2Claim()).version == 2)
        #expect(try Claim(label: "c2pa.claim.v2", bytes: Self.v1Claim()).version == 1)
        #expect(try Claim(label: "c2pa.claim", bytes: Self.v2Claim()).version == 2)
        #expect(try Claim(label: "c2pa.claim", bytes: Self.v1Claim()).version == 1)
    }

    /// A label naming a version above 2 is c2pa-rs's `ClaimVersionTooNew`.
    @Test func tooNewLabelIsRefused() {
        #expect(throws: ClaimError.unknownLabel("c2pa.claim.v3")) { try Claim(label: "c2pa.claim.v3", bytes: Self.v2Claim()) }
        #expect(ClaimError.unknownLabel("x").code == StatusCode.claimUnknownLabel)
    }

    /// Both version's assertion lists, or neither: c2pa-rs "unsupported claim version".
    @Test func ambiguousOrMissingAssertionLists() {
        let both = CBOR.textMap([
            ("signature", .text("self#jumbf=c2pa.signature")), ("assertions", .array([])), ("created_assertions", .array([])),
        ]).encoded()
        #expect(throws: ClaimError.unsupportedVersion) { try Claim(label: "c2pa.claim.v2", bytes: both) }
        #expect(ClaimError.unsupportedVersion.code == StatusCode.claimUnsupportedVersion)
        let neither = CBOR.textMap([("signature", .text("self#jumbf=c2pa.signature"))]).encoded()
        #expect(throws: ClaimError.missingField("created_assertions")) { try Claim(label: "c2pa.claim", bytes: neither) }
    }
}

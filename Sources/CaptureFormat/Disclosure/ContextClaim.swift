import C2PA
import Crypto
import Ground

/// One committed context claim. Values are UTF-8 text (our choice: no floats to canonicalise).
public struct ContextClaim: Hashable, Sendable, Codable {
    public var claimId: String
    public var rung: UInt32
    public var value: String

    public init(claimId: String, rung: UInt32, value: String) {
        self.claimId = claimId
        self.rung = rung
        self.value = value
    }

    /// A schema claim with its rung filled in from the schema (nil for an unknown id).
    public init?(claimId: String, value: String) {
        guard let r = ClaimSchema.rung(for: claimId) else { return nil }
        self.init(claimId: claimId, rung: r, value: value)
    }

    /// canonical(claim): deterministic CBOR of `{"rung": uint, "value": text, "claimId": text}`.
    ///
    /// Written directly (one per leaf, four bundles per still): the keys in deterministic order —
    /// `64 "rung"` < `65 "value"` < `67 "claimId"`, bytewise — each value by the codec's shortest
    /// head, which is what `DeterministicCBOR.encode(.textMap(…))` gives (`canonicalEncodingIsDeterministicCBOR`).
    public var canonicalEncoding: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(24 + value.utf8.count + claimId.utf8.count)
        out += [0xa3, 0x64, 0x72, 0x75, 0x6e, 0x67]                       // map(3), "rung"
        CBOR.unsigned(UInt64(rung)).encode(into: &out)
        out += [0x65, 0x76, 0x61, 0x6c, 0x75, 0x65]                       // "value"
        CBOR.text(value).encode(into: &out)
        out += [0x67, 0x63, 0x6c, 0x61, 0x69, 0x6d, 0x49, 0x64]           // "claimId"
        CBOR.text(claimId).encode(into: &out)
        return out
    }

    /// The time ladder's claims for a capture time: every rung down to the time's own.
    public static func timeLadder(_ time: CaptureTime) -> [ContextClaim] {
        time.ladder.map { ContextClaim(claimId: "time.\($0.rung.name)", rung: UInt32($0.rung.rawValue), value: $0.text) }
    }
}

/// One inventory entry: a claim declared never-recorded at commit time.
public struct InventoryEntry: Hashable, Sendable, Codable {
    public var claimId: String
    public var rung: UInt32

    public init(claimId: String, rung: UInt32) {
        self.claimId = claimId
        self.rung = rung
    }

    var cbor: CBOR { .textMap([("claimId", .text(claimId)), ("rung", .unsigned(UInt64(rung)))]) }

    /// canonical(inventoryEntries): deterministic CBOR array of `{"rung", "claimId"}` maps,
    /// sorted by claimId bytewise (the empty inventory is `0x80`).
    public static func canonicalEncoding(_ entries: [InventoryEntry]) -> [UInt8] {
        DeterministicCBOR.encode(.array(entries.sorted { utf8Precedes($0.claimId, $1.claimId) }.map(\.cbor)))
    }
}

/// The leaf, salt and meta-leaf derivations of the disclosure tree.
public enum DisclosureLeaf {
    public static let leafPrefix = Array("leaf-v1".utf8)
    public static let inventoryPrefix = Array("inventory-v1".utf8)
    public static let saltInfoPrefix = Array("exhibit-leaf-v1".utf8)

    /// salt = HKDF-SHA256(IKM = masterSeed, salt = empty, info = 'exhibit-leaf-v1' ‖ claimId UTF-8 ‖
    /// rung UInt32 big-endian, L = 32).
    public static func salt(masterSeed: [UInt8], claimId: String, rung: UInt32) throws(OpenSSLError) -> [UInt8] {
        let info = saltInfoPrefix + Array(claimId.utf8) + [UInt8(rung >> 24), UInt8((rung >> 16) & 0xff), UInt8((rung >> 8) & 0xff), UInt8(rung & 0xff)]
        return try HKDF.sha256(key: masterSeed, salt: [], info: info, length: 32)
    }

    /// leaf = SHA-256('leaf-v1' ‖ canonical(claim) ‖ salt).
    public static func leaf(_ claim: ContextClaim, salt: [UInt8]) -> ContentID {
        ContentID.sha256(concatenating: [leafPrefix, claim.canonicalEncoding, salt])
    }

    /// meta-leaf (tree index 0) = SHA-256('inventory-v1' ‖ canonical(inventoryEntries)).
    public static func metaLeaf(_ entries: [InventoryEntry]) -> ContentID {
        ContentID.sha256(concatenating: [inventoryPrefix, InventoryEntry.canonicalEncoding(entries)])
    }
}

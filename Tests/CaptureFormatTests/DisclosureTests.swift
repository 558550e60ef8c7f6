@testable import CaptureFormat
import Foundation
import Ground
import TestLiterals
import Testing

func flipHex(_ s: String) -> String { DisclosureTests.flipHexImpl(s) }

@Suite struct DisclosureTests {
    static let seed: [UInt8] = (0..<32).map { UInt8($0 * 7 + 1) }
    static let fingerprint = Fixtures.digest("spki").hex

    static let claims: [ContextClaim] = {
        var c = ["location.grid-region": "N52E013", "location.country": "DE", "location.region": "DE-BE",
                 "location.city": "Berlin", "location.exact": "52.520008,13.404954",
                 "identity.key-fingerprint": fingerprint, "identity.device-model": "iPhone16,1",
                 "sensor.present": "accelerometer,barometer,gyroscope,location", "context.weather": "overcast",
                 "context.assignment": "city-council-2026-11"].map { ContextClaim(claimId: $0.key, value: $0.value)! }
        c += ContextClaim.timeLadder(CaptureTime("2026-11-30T14:03:27.123Z")!)
        return c
    }()
    static let neverRecorded = ["identity.named", "sensor.residual-summary"]

    static func commitment() throws -> ContextCommitment {
        try ContextCommitment.commit(claims: claims, masterSeed: seed, neverRecorded: neverRecorded)
    }

    @Test func commitMatchesIndependentPython() throws {
        let c = try Self.commitment()
        let sorted = Self.claims.sorted { Array($0.claimId.utf8).lexicographicallyPrecedes(Array($1.claimId.utf8)) }
        let seedHex = Self.seed.map { String(format: "%02x", $0) }.joined()
        let first = try Peer.run([
            "salts": sorted.map { [seedHex, $0.claimId, Int($0.rung)] as [Any] },
            "claims": sorted.map { [$0.claimId, Int($0.rung), $0.value] as [Any] },
            "inventory": [Self.neverRecorded.map { [$0, Int(ClaimSchema.rung(for: $0)!)] as [Any] }, []],
        ])
        let salts = try Peer.strings(first, "salts")
        #expect(try salts == sorted.map { try DisclosureLeaf.salt(masterSeed: Self.seed, claimId: $0.claimId, rung: $0.rung).map { String(format: "%02x", $0) }.joined() })
        #expect(try Peer.strings(first, "claims") == sorted.map { $0.canonicalEncoding.map { String(format: "%02x", $0) }.joined() })
        let meta = try Peer.strings(first, "inventory")
        #expect(meta[0] == DisclosureLeaf.metaLeaf(c.inventory).hex)
        #expect(meta[1] == DisclosureLeaf.metaLeaf([]).hex)
        let second = try Peer.run(["leaves": zip(sorted, salts).map { [$0.claimId, Int($0.rung), $0.value, $1] as [Any] }])
        let leaves = try Peer.strings(second, "leaves")
        let third = try Peer.run(["merkle": [[meta[0]] + leaves]])
        #expect(try Peer.strings(third, "merkle")[0] == c.root.hex)
        #expect(c.tree.size == Self.claims.count + 1)
        #expect(c.assertion.treeSize == c.tree.size)
        #expect(try ContextTreeAssertion(decoding: c.assertion.encoded()) == c.assertion)
    }

    @Test func canonicalClaimVectorFromTheDocs() {
        let c = ContextClaim(claimId: "location.country", value: "DE")!
        #expect(c.rung == 1)
        #expect(c.canonicalEncoding.map { String(format: "%02x", $0) }.joined()
            == "a36472756e67016576616c756562444567636c61696d4964706c6f636174696f6e2e636f756e747279")
        #expect(InventoryEntry.canonicalEncoding([]) == [0x80])
    }

    @Test func saltInfoUsesBigEndianUInt32Rung() throws {
        // Rung 6 vs rung 0x06000000 must differ: the width and byte order are part of the format.
        let a = try DisclosureLeaf.salt(masterSeed: Self.seed, claimId: "time.exact-ms", rung: 6)
        let b = try DisclosureLeaf.salt(masterSeed: Self.seed, claimId: "time.exact-ms", rung: 0x0600_0000)
        #expect(a != b && a.count == 32)
    }

    @Test func everyProfileVerifies() throws {
        let c = try Self.commitment()
        for p in DisclosureProfile.allCases {
            let b = try c.openSubset(p, claims: Self.claims, masterSeed: Self.seed,
                                     customClaimIds: ["time.hour", "context.weather", "location.city"])
            let back = try DisclosureBundle(json: b.encodedJSON())
            #expect(back == b)
            let v = back.verify(against: c.assertion)
            #expect(v.isValid, "\(p): \(v.failures)")
            #expect(back.verify().isValid)
            #expect(v.neverRecorded == Self.neverRecorded.sorted())
            switch p {
            case .sealed: #expect(b.opened.isEmpty && b.withheldCount == Self.claims.count)
            case .short: #expect(Set(b.opened.map(\.claimId)) == ClaimSchema.shortProfile)
            case .full: #expect(b.opened.count == Self.claims.count && b.withheldCount == 0)
            case .custom: #expect(b.opened.map(\.claimId) == ["context.weather", "location.city", "time.hour"])
            }
        }
    }

    static func short() throws -> (ContextCommitment, DisclosureBundle) {
        let c = try commitment()
        return (c, try c.openSubset(.short, claims: claims, masterSeed: seed))
    }

    /// Applies `tamper` to a fresh short bundle and returns the verification against the assertion.
    static func tampered(_ tamper: (inout DisclosureBundle) -> Void, signed: Bool = true) throws -> BundleVerification {
        let (c, b) = try short()
        var t = b
        tamper(&t)
        return signed ? t.verify(against: c.assertion) : t.verify()
    }

    static func flipHexImpl(_ s: String) -> String {
        var u = Array(s.utf8)
        u[3] = u[3] == UInt8(ascii: "0") ? UInt8(ascii: "1") : UInt8(ascii: "0")
        return String(decoding: u, as: UTF8.self)
    }

    @Test func eachTamperFailsWithItsOwnLabelAndSparesTheOtherLeaves() throws {
        typealias L = BundleFailure.Label
        let cases: [(String, L, (inout DisclosureBundle) -> Void)] = [
            ("value", .leafMismatch, { $0.opened[1].value = "FR" }),
            ("salt", .leafMismatch, { $0.opened[1].salt = flipHex($0.opened[1].salt) }),
            ("proof", .proofInvalid, { $0.opened[1].proof[0] = flipHex($0.opened[1].proof[0]) }),
            ("index", .indexMismatch, { $0.opened[1].index = $0.opened[2].index }),
            ("index out of range", .indexOutOfRange, { $0.opened[1].index = 99 }),
            ("index 0", .indexReserved, { $0.opened[1].index = 0 }),
            ("count", .withheldCountMismatch, { $0.withheldCount += 1 }),
            ("declaration", .neverRecordedMismatch, { $0.neverRecorded.removeLast() }),
            ("label", .unknownProfile, { $0.profile = "brief" }),
            ("short relabelled full", .profileMismatch, { $0.profile = "full" }),
            ("short relabelled sealed", .profileMismatch, { $0.profile = "sealed" }),
            ("inventory entries", .inventoryMetaLeafMismatch, { $0.inventoryEntries.removeLast(); $0.neverRecorded.removeLast() }),
            ("root", .rootMismatch, { $0.root = flipHex($0.root) }),
            ("tree size", .treeSizeMismatch, { $0.treeSize += 1; $0.withheldCount += 1 }),
            ("rung", .claimSchemaViolation, { $0.opened[1].rung = 3 }),
            ("duplicate", .duplicateClaim, { $0.opened.append($0.opened[1]); $0.withheldCount -= 1 }),
            ("version", .unsupportedVersion, { $0.version = 2 }),
            ("malformed salt", .malformedBundle, { $0.opened[1].salt = "zz" }),
        ]
        for (name, label, tamper) in cases {
            let v = try Self.tampered(tamper)
            #expect(v.labels.contains(label), "\(name): got \(v.labels)")
            #expect(!v.isValid)
            // Leaves other than the one touched (index 1 in the opened list) still check.
            if name != "root" && name != "tree size" && name != "duplicate" {
                for (i, leaf) in v.leaves.enumerated() where i != 1 {
                    #expect(leaf.verified, "\(name): leaf \(leaf.claimId) poisoned: \(leaf.failures)")
                }
            }
        }
        // Root and tree-size tampering fall back to the signed values: all leaves still check.
        let rootFlip = try Self.tampered { $0.root = flipHex($0.root) }
        #expect(rootFlip.leaves.allSatisfy { $0.verified })
        let sizeFlip = try Self.tampered { $0.treeSize += 1; $0.withheldCount += 1 }
        #expect(sizeFlip.leaves.allSatisfy { $0.verified })
        // Without the signed values, a changed root fails every proof instead.
        let unsigned = try Self.tampered({ $0.root = flipHex($0.root) }, signed: false)
        #expect(unsigned.labels.contains(BundleFailure.Label.proofInvalid))
        #expect(unsigned.labels.contains(BundleFailure.Label.inventoryMetaLeafMismatch))
    }

    @Test func withheldRelabelledNeverRecordedFailsTheMetaLeaf() throws {
        // Count-preserving: one withheld claim moves to never-recorded, the totals stay equal.
        for signed in [true, false] {
            let v = try Self.tampered({ b in
                b.neverRecorded.append("location.exact")
                b.inventoryEntries.append(InventoryEntry(claimId: "location.exact", rung: 4))
                b.withheldCount -= 1
            }, signed: signed)
            #expect(v.labels.contains(.inventoryMetaLeafMismatch), "signed=\(signed): \(v.labels)")
            #expect(v.leaves.allSatisfy { $0.verified })
        }
    }

    @Test func customNeedsItsIdsAndFullMustOpenEverything() throws {
        let c = try Self.commitment()
        var custom = try c.openSubset(.custom, claims: Self.claims, masterSeed: Self.seed, customClaimIds: ["location.city"])
        custom.customClaimIds = ["location.city", "location.exact"]
        #expect(custom.verify(against: c.assertion).labels == [.profileMismatch])
        custom.customClaimIds = nil
        #expect(custom.verify(against: c.assertion).labels == [.profileMismatch])
        var full = try c.openSubset(.full, claims: Self.claims, masterSeed: Self.seed)
        full.opened.removeAll { $0.claimId == "context.weather" }
        full.withheldCount = 1
        #expect(full.verify(against: c.assertion).labels == [.profileMismatch])
    }

    @Test func commitRefusesGapsAndNamesThem() throws {
        var missing = Self.claims
        missing.removeAll { $0.claimId == "location.city" }
        #expect(throws: CommitError.undeclaredClaim("location.city")) {
            try ContextCommitment.commit(claims: missing, masterSeed: Self.seed, neverRecorded: Self.neverRecorded)
        }
        #expect(throws: CommitError.committedAndDeclared("location.city")) {
            try ContextCommitment.commit(claims: Self.claims, masterSeed: Self.seed, neverRecorded: Self.neverRecorded + ["location.city"])
        }
        #expect(throws: CommitError.unknownClaim("location.planet")) {
            try ContextCommitment.commit(claims: Self.claims + [ContextClaim(claimId: "location.planet", rung: 9, value: "x")],
                                         masterSeed: Self.seed, neverRecorded: Self.neverRecorded)
        }
        #expect(throws: CommitError.rungMismatch(claimId: "location.city", expected: 3, got: 2)) {
            try ContextCommitment.commit(claims: Self.claims.map { $0.claimId == "location.city" ? ContextClaim(claimId: "location.city", rung: 2, value: "B") : $0 },
                                         masterSeed: Self.seed, neverRecorded: Self.neverRecorded)
        }
        #expect(throws: CommitError.invalidSeed(length: 16)) {
            try ContextCommitment.commit(claims: Self.claims, masterSeed: Array(Self.seed.prefix(16)), neverRecorded: Self.neverRecorded)
        }
        // A different seed gives a different root over the same claims.
        var other = Self.seed
        other[0] ^= 1
        let otherRoot = try ContextCommitment.commit(claims: Self.claims, masterSeed: other, neverRecorded: Self.neverRecorded).root
        #expect(try otherRoot != Self.commitment().root)
    }

    @Test func malformedBundleFiles() {
        for text in ["", "{}", "[1]", #"{"version":1}"#, "not json"] {
            #expect(throws: BundleDecodingError.self) { try DisclosureBundle(json: Data(text.utf8)) }
        }
        #expect(BundleVerification.malformed("x").labels == [.malformedBundle])
    }
}

@Suite struct DisclosureHostileTests {
    @Test func hostileNumbersNeitherCrashNorHang() throws {
        let c = try DisclosureTests.commitment()
        let b = try c.openSubset(.short, claims: DisclosureTests.claims, masterSeed: DisclosureTests.seed)
        for size in [Int.min, -1, 0, Int.max, 1 << 40] {
            var t = b
            t.treeSize = size
            let v = t.verify()
            #expect(v.labels.contains(.treeSizeMismatch), "\(size)")
            // With the signed size given, the same bundle still checks its leaves.
            #expect(t.verify(against: c.assertion).leaves.allSatisfy { $0.verified })
        }
        var t = b
        t.withheldCount = Int.min
        t.opened[0].index = Int.max
        let v = t.verify(against: c.assertion)
        #expect(v.labels.contains(.withheldCountMismatch) && v.labels.contains(.indexOutOfRange))
    }

    @Test func everyByteFlipOfARecordDecodesOrFailsByName() {
        let bytes = Fixtures.still().encoded()
        var accepted = 0
        for i in bytes.indices {
            for mask: UInt8 in [0x01, 0x80] {
                var m = bytes
                m[i] ^= mask
                do {
                    let r = try CaptureRecord(decoding: m)
                    accepted += 1
                    #expect(r != Fixtures.still(), "flip at \(i) read back as the original")
                } catch {
                    #expect(error.code.hasPrefix("record."))
                }
            }
        }
        // Flips inside text and numbers still decode; flips in structure do not.
        #expect(accepted > 0 && accepted < bytes.count * 2)
    }
}

@Suite struct ClaimValueTests {
    @Test func partitionDeclaresEveryMissingLadderClaim() throws {
        let (claims, never) = try ClaimSchema.partition(["time.year": "2026", "location.country": "DE", "context.weather": "rain"])
        #expect(claims.map(\.claimId) == ["context.weather", "location.country", "time.year"])
        #expect(never.count == ClaimSchema.expected.count - 2)
        #expect(!never.contains("time.year") && never.contains("time.exact-ms") && never.contains("identity.named"))
        let c = try ContextCommitment.commit(claims: claims, masterSeed: DisclosureTests.seed, neverRecorded: never)
        #expect(c.tree.size == 4 && c.inventory.count == 15)
        #expect(throws: CommitError.unknownClaim("time.week")) { try ClaimSchema.partition(["time.week": "48"]) }
        #expect(throws: CommitError.unknownClaim("context.Bad")) { try ClaimSchema.partition(["context.Bad": "x"]) }
    }

    @Test func gridRegionFloorsToTheCell() {
        #expect(ClaimSchema.gridRegion(latitude: 52.520008, longitude: 13.404954) == "N52E013")
        #expect(ClaimSchema.gridRegion(latitude: -33.45, longitude: -70.66) == "S34W071")
        #expect(ClaimSchema.gridRegion(latitude: 0.5, longitude: -0.5) == "N00W001")
        #expect(ClaimSchema.gridRegion(latitude: 91, longitude: 0) == nil)
    }
}

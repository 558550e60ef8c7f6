/// A reader of the one JSON shape bundles are written in, beside Foundation's `JSONDecoder`.
///
/// `JSONDecoder`'s `Codable` walk was half of a bundle's cost at ingest (four bundles per still).
/// This reader accepts only a strict subset of JSON, in which it decodes exactly what
/// `JSONDecoder` decodes: one object holding each known key at most once (no other key), strings
/// without escapes or control characters that are valid UTF-8, integers as `-?(0|[1-9][0-9]*)`
/// within range (no `-0`), `null` only for `customClaimIds`, whitespace only where JSON allows it
/// and nothing after the object. Anything else — including every malformed bundle — gives nil and
/// `init(json:)` falls back to `JSONDecoder`, so the values and the error texts of reports do not
/// change. `StrictBundleJSONTests` compares the two readers on written bundles and mutations.
extension DisclosureBundle {
    init?(strictJSON buffer: UnsafeRawBufferPointer) {
        var r = StrictJSONReader(buffer)
        guard let b = r.bundle(), r.atEnd() else { return nil }
        self = b
    }
}

/// Reads a key's value into its empty slot: false for a key seen twice or a refused value.
private func once<T>(_ slot: inout T?, _ read: () -> T?) -> Bool {
    guard slot == nil else { return false }
    slot = read()
    return slot != nil
}

/// Cursor over the bytes; every `read…` returns nil when the input leaves the strict subset.
private struct StrictJSONReader {
    let bytes: UnsafeRawBufferPointer
    var at = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    mutating func skipSpace() {
        while at < bytes.count {
            switch bytes[at] {
            case 0x20, 0x09, 0x0a, 0x0d: at += 1
            default: return
            }
        }
    }

    /// Skips whitespace, then consumes `byte` if it is next.
    mutating func take(_ byte: UInt8) -> Bool {
        skipSpace()
        guard at < bytes.count, bytes[at] == byte else { return false }
        at += 1
        return true
    }

    mutating func atEnd() -> Bool {
        skipSpace()
        return at == bytes.count
    }

    /// A string without escapes or control characters, valid UTF-8.
    mutating func string() -> String? {
        guard take(0x22) else { return nil }
        let start = at
        while at < bytes.count {
            let c = bytes[at]
            if c == 0x22 {
                let s = String(validating: UnsafeRawBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self)
                at += 1
                return s
            }
            if c < 0x20 || c == 0x5c { return nil }
            at += 1
        }
        return nil
    }

    /// An integer `-?(0|[1-9][0-9]*)` in Int's range; `-0`, fractions and exponents are refused.
    mutating func int() -> Int? {
        skipSpace()
        var negative = false
        if at < bytes.count, bytes[at] == 0x2d { negative = true; at += 1 }
        let start = at
        var value = 0
        while at < bytes.count, (0x30...0x39).contains(bytes[at]) {
            let d = Int(bytes[at] - 0x30)
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (s, o2) = negative ? m.subtractingReportingOverflow(d) : m.addingReportingOverflow(d)
            guard !o1, !o2 else { return nil }
            value = s
            at += 1
        }
        let digits = at - start
        guard digits > 0, !(digits > 1 && bytes[start] == 0x30), !(negative && value == 0) else { return nil }
        if at < bytes.count, [0x2e, 0x65, 0x45].contains(bytes[at]) { return nil }
        return value
    }

    mutating func uint32() -> UInt32? { int().flatMap { UInt32(exactly: $0) } }

    /// `null` (consumed, true) or not (nothing consumed, false).
    mutating func null() -> Bool {
        skipSpace()
        guard bytes.count - at >= 4, bytes[at] == 0x6e, bytes[at + 1] == 0x75, bytes[at + 2] == 0x6c, bytes[at + 3] == 0x6c
        else { return false }
        at += 4
        return true
    }

    /// `[ element, … ]`.
    mutating func array<T>(_ element: (inout StrictJSONReader) -> T?) -> [T]? {
        guard take(0x5b) else { return nil }
        var out: [T] = []
        if take(0x5d) { return out }
        repeat {
            guard let e = element(&self) else { return nil }
            out.append(e)
        } while take(0x2c)
        return take(0x5d) ? out : nil
    }

    /// `{ "key" : value, … }`: `value` reads the value of each key and returns false to refuse
    /// it (an unknown key, a second occurrence or a value outside the subset).
    mutating func object(_ value: (inout StrictJSONReader, String) -> Bool) -> Bool {
        guard take(0x7b) else { return false }
        if take(0x7d) { return true }
        repeat {
            guard let key = string(), take(0x3a), value(&self, key) else { return false }
        } while take(0x2c)
        return take(0x7d)
    }

    mutating func strings() -> [String]? { array { $0.string() } }

    mutating func bundle() -> DisclosureBundle? {
        var version, treeSize, withheldCount: Int?
        var profile, root: String?
        var custom: [String]??
        var opened: [OpenedClaim]?
        var neverRecorded, inventoryProof: [String]?
        var inventory: [InventoryEntry]?
        let ok = object { r, key in
            switch key {
            case "version": return once(&version) { r.int() }
            case "profile": return once(&profile) { r.string() }
            case "root": return once(&root) { r.string() }
            case "treeSize": return once(&treeSize) { r.int() }
            case "withheldCount": return once(&withheldCount) { r.int() }
            case "customClaimIds":
                guard custom == nil else { return false }
                if r.null() { custom = .some(nil); return true }
                guard let ids = r.strings() else { return false }
                custom = .some(ids)
                return true
            case "opened": return once(&opened) { r.array { $0.openedClaim() } }
            case "neverRecorded": return once(&neverRecorded) { r.strings() }
            case "inventoryEntries": return once(&inventory) { r.array { $0.inventoryEntry() } }
            case "inventoryProof": return once(&inventoryProof) { r.strings() }
            default: return false
            }
        }
        guard ok, let version, let profile, let root, let treeSize, let opened, let withheldCount, let neverRecorded,
              let inventory, let inventoryProof else { return nil }
        return DisclosureBundle(version: version, profile: profile, customClaimIds: custom ?? nil, root: root, treeSize: treeSize,
                                opened: opened, withheldCount: withheldCount, neverRecorded: neverRecorded,
                                inventoryEntries: inventory, inventoryProof: inventoryProof)
    }

    mutating func openedClaim() -> OpenedClaim? {
        var claimId, value, salt, leaf: String?
        var rung: UInt32?
        var index: Int?
        var proof: [String]?
        let ok = object { r, key in
            switch key {
            case "claimId": return once(&claimId) { r.string() }
            case "rung": return once(&rung) { r.uint32() }
            case "value": return once(&value) { r.string() }
            case "salt": return once(&salt) { r.string() }
            case "index": return once(&index) { r.int() }
            case "leaf": return once(&leaf) { r.string() }
            case "proof": return once(&proof) { r.strings() }
            default: return false
            }
        }
        guard ok, let claimId, let rung, let value, let salt, let index, let leaf, let proof else { return nil }
        return OpenedClaim(claimId: claimId, rung: rung, value: value, salt: salt, index: index, leaf: leaf, proof: proof)
    }

    mutating func inventoryEntry() -> InventoryEntry? {
        var claimId: String?
        var rung: UInt32?
        let ok = object { r, key in
            switch key {
            case "claimId": return once(&claimId) { r.string() }
            case "rung": return once(&rung) { r.uint32() }
            default: return false
            }
        }
        guard ok, let claimId, let rung else { return nil }
        return InventoryEntry(claimId: claimId, rung: rung)
    }
}

/// A JUMBF box to be written: a superbox (description + children) or a content box.
public indirect enum JUMBFNode: Sendable, Equatable {
    /// A `jumb` superbox. `typeUUID` is 16 bytes; the label is written null-terminated with the
    /// requestable + label toggles (3), as c2pa-rs writes them.
    case superbox(typeUUID: [UInt8], label: String, children: [JUMBFNode])
    /// A content box: 4CC type and payload bytes, written as is.
    case content(type: String, payload: [UInt8])

    /// The box's bytes.
    public func encoded() -> [UInt8] {
        switch self {
        case .content(let type, let payload):
            return JUMBFNode.box(type: type, payload: payload)
        case .superbox(let uuid, let label, let children):
            var jumd = uuid
            jumd.append(0x03)
            jumd.append(contentsOf: Array(label.utf8))
            jumd.append(0)
            var payload = JUMBFNode.box(type: "jumd", payload: jumd)
            for c in children { payload.append(contentsOf: c.encoded()) }
            return JUMBFNode.box(type: "jumb", payload: payload)
        }
    }

    /// LBox/TBox (or XLBox when the box exceeds 32 bits) followed by the payload.
    public static func box(type: String, payload: [UInt8]) -> [UInt8] {
        let t = Array(type.utf8.prefix(4))
        let total = UInt64(payload.count) + 8
        var out: [UInt8] = []
        out.reserveCapacity(payload.count + 16)
        if total > UInt64(UInt32.max) {
            out += BigEndian.bytes(UInt32(1)) + t + BigEndian.bytes(total + 8)
        } else {
            out += BigEndian.bytes(UInt32(total)) + t
        }
        out += payload
        return out
    }

    /// A CBOR content box.
    public static func cbor(_ item: CBOR) -> JUMBFNode { .content(type: "cbor", payload: item.encoded()) }
}

/// C2PA JUMBF content types: a 4CC followed by the ISO suffix `0011-0010-8000-00AA00389B71`.
public enum C2PABoxType {
    public static let suffix: [UInt8] = [0x00, 0x11, 0x00, 0x10, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]

    public static func uuid(_ fourCC: String) -> [UInt8] { Array(fourCC.utf8.prefix(4)) + suffix }

    public static let store = uuid("c2pa")
    public static let manifest = uuid("c2ma")
    public static let updateManifest = uuid("c2um")
    public static let claim = uuid("c2cl")
    public static let assertionStore = uuid("c2as")
    public static let signature = uuid("c2cs")
    public static let credentialStore = uuid("c2vc")
    public static let databoxes = uuid("c2db")
    public static let cbor = uuid("cbor")
    public static let json = uuid("json")
}

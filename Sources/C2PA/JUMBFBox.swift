/// One box of a JUMBF tree (ISO/IEC 19566-5), read over a shared byte buffer.
///
///     Box        = LBox(u32) TBox(4cc) [XLBox(u64) if LBox == 1] payload
///     Superbox   = 'jumb' payload = DescriptionBox ContentBox*
///     Description= 'jumd' payload = type(16) toggles(u8) [label NUL] [id u32] [hash(32)] [private box]
///
/// Ranges are offsets into `storage`; the bytes are the ones read, never re-encoded.
public struct JUMBFBox: Sendable {
    public let storage: [UInt8]
    /// Four-character box type (`jumb`, `jumd`, `cbor`, `json`, …).
    public let type: String
    /// The whole box, header included.
    public let range: Range<Int>
    /// The payload, after LBox/TBox (and XLBox).
    public let payloadRange: Range<Int>
    /// For a superbox: its description. Nil for content boxes.
    public let description: JUMBFDescription?
    /// For a superbox: the boxes after the description box.
    public let children: [JUMBFBox]

    public var isSuperbox: Bool { description != nil }
    public var bytes: ArraySlice<UInt8> { storage[range] }
    public var payload: ArraySlice<UInt8> { storage[payloadRange] }
    public var label: String? { description?.label }

    /// The bytes a C2PA hashed URI covers for this box: the superbox's payload (description
    /// box and content boxes) without its own LBox/TBox header (c2pa-rs hashes the same).
    public var hashedBytes: ArraySlice<UInt8> { payload }

    /// The first child superbox with this label.
    public func child(labelled label: String) -> JUMBFBox? {
        children.first { $0.label == label }
    }

    /// Children that are content boxes of the given type.
    public func contentBoxes(ofType t: String) -> [JUMBFBox] {
        children.filter { !$0.isSuperbox && $0.type == t }
    }
}

/// The description box (`jumd`) of a superbox.
public struct JUMBFDescription: Sendable, Equatable {
    /// The 16-byte content-type UUID; C2PA types are a 4CC followed by `0011-0010-8000-00AA00389B71`.
    public let typeUUID: [UInt8]
    public let toggles: UInt8
    public let label: String?
    public let id: UInt32?
    public let hash: [UInt8]?
    /// The private box's byte range in the shared storage, if present.
    public let privateBoxRange: Range<Int>?

    /// The 4CC prefix of the type UUID (`c2pa`, `c2ma`, `c2cl`, `cbor`, …).
    public var typeFourCC: String { BigEndian.fourCC(Array(typeUUID.prefix(4))) }
}

extension JUMBFBox {
    /// Deepest superbox nesting accepted.
    public static let maximumDepth = 16

    /// Parses one superbox spanning all of `bytes` (trailing bytes are an error).
    public init(parsing bytes: [UInt8]) throws(JUMBFError) {
        let reader = JUMBFReader(storage: bytes)
        let box = try reader.readBox(at: 0, limit: bytes.count, depth: 0)
        guard box.range.upperBound == bytes.count else { throw .trailingBytes(offset: box.range.upperBound) }
        guard box.isSuperbox else { throw .notASuperbox(offset: 0) }
        self = box
    }
}

struct JUMBFReader {
    let storage: [UInt8]

    /// Reads the box at `offset` that must end at or before `limit`.
    func readBox(at offset: Int, limit: Int, depth: Int) throws(JUMBFError) -> JUMBFBox {
        guard depth <= JUMBFBox.maximumDepth else { throw .depthExceeded(offset: offset) }
        let (type, range, payload) = try header(at: offset, limit: limit)
        guard type == "jumb" else {
            return JUMBFBox(storage: storage, type: type, range: range, payloadRange: payload,
                            description: nil, children: [])
        }
        // First child must be the description box.
        guard payload.count >= 8 else { throw .missingDescription(offset: payload.lowerBound) }
        let (dType, dRange, dPayload) = try header(at: payload.lowerBound, limit: payload.upperBound)
        guard dType == "jumd" else { throw .missingDescription(offset: dRange.lowerBound) }
        let description = try readDescription(dPayload)
        var children: [JUMBFBox] = []
        var at = dRange.upperBound
        while at < payload.upperBound {
            let child = try readBox(at: at, limit: payload.upperBound, depth: depth + 1)
            children.append(child)
            at = child.range.upperBound
        }
        return JUMBFBox(storage: storage, type: type, range: range, payloadRange: payload,
                        description: description, children: children)
    }

    func header(at offset: Int, limit: Int) throws(JUMBFError) -> (String, Range<Int>, Range<Int>) {
        guard limit - offset >= 8, let lbox = BigEndian.u32(storage, offset),
              let t = BigEndian.slice(storage, offset + 4, 4) else { throw .truncated(offset: offset) }
        var headerLength = 8
        var length: UInt64 = UInt64(lbox)
        if lbox == 1 {
            guard limit - offset >= 16, let xl = BigEndian.u64(storage, offset + 8) else { throw .truncated(offset: offset) }
            headerLength = 16
            length = xl
        } else if lbox == 0 {
            length = UInt64(limit - offset) // to the end of the enclosing space
        }
        guard length >= UInt64(headerLength), length <= UInt64(limit - offset) else {
            throw .badBoxLength(offset: offset)
        }
        let end = offset + Int(length)
        return (BigEndian.fourCC(t), offset..<end, (offset + headerLength)..<end)
    }

    func readDescription(_ r: Range<Int>) throws(JUMBFError) -> JUMBFDescription {
        guard r.count >= 17 else { throw .badDescription(offset: r.lowerBound) }
        let uuid = Array(storage[r.lowerBound..<(r.lowerBound + 16)])
        let toggles = storage[r.lowerBound + 16]
        var at = r.lowerBound + 17
        var label: String?
        if toggles & 0x02 != 0 {
            guard let nul = storage[at..<r.upperBound].firstIndex(of: 0),
                  let s = String(validating: storage[at..<nul], as: UTF8.self) else {
                throw .badDescription(offset: at)
            }
            label = s
            at = nul + 1
        }
        var id: UInt32?
        if toggles & 0x04 != 0 {
            guard r.upperBound - at >= 4, let v = BigEndian.u32(storage, at) else { throw .badDescription(offset: at) }
            id = v
            at += 4
        }
        var hash: [UInt8]?
        if toggles & 0x08 != 0 {
            guard r.upperBound - at >= 32 else { throw .badDescription(offset: at) }
            hash = Array(storage[at..<(at + 32)])
            at += 32
        }
        var privateRange: Range<Int>?
        if toggles & 0x10 != 0 {
            let (_, pr, _) = try header(at: at, limit: r.upperBound)
            privateRange = pr
            at = pr.upperBound
        }
        guard at == r.upperBound else { throw .badDescription(offset: at) }
        return JUMBFDescription(typeUUID: uuid, toggles: toggles, label: label, id: id, hash: hash,
                                privateBoxRange: privateRange)
    }
}

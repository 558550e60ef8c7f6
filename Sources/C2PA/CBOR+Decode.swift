import Ground

/// Why a CBOR item could not be read. `code` is stable; tests compare against it.
public enum CBORError: Error, Equatable, Sendable, CustomStringConvertible {
    case truncated(offset: Int)
    case reservedAdditionalInfo(offset: Int)
    case invalidIndefinite(offset: Int)
    case lengthTooLarge(offset: Int)
    case depthExceeded(offset: Int)
    case invalidUTF8(offset: Int)
    case breakOutsideIndefinite(offset: Int)
    case trailingBytes(offset: Int)
    case invalidSimple(offset: Int)

    public var code: String {
        switch self {
        case .truncated: StatusCode.cborTruncated
        case .reservedAdditionalInfo: StatusCode.cborReservedAdditionalInfo
        case .invalidIndefinite: StatusCode.cborInvalidIndefinite
        case .lengthTooLarge: StatusCode.cborLengthTooLarge
        case .depthExceeded: StatusCode.cborDepthExceeded
        case .invalidUTF8: StatusCode.cborInvalidUTF8
        case .breakOutsideIndefinite: StatusCode.cborBreakOutsideIndefinite
        case .trailingBytes: StatusCode.cborTrailingBytes
        case .invalidSimple: StatusCode.cborInvalidSimple
        }
    }

    /// Where a CBOR failure is reported: alone (`cbor.*`), inside a capture record
    /// (`record.cbor.*`) or inside an identity assertion (`identity.cbor.*`).
    public enum Context: Sendable { case record, identity }

    /// The code of this failure inside `context`.
    public func code(in context: Context) -> String {
        switch (context, self) {
        case (.record, .truncated): StatusCode.recordCborTruncated
        case (.identity, .truncated): StatusCode.identityCborTruncated
        case (.record, .reservedAdditionalInfo): StatusCode.recordCborReservedAdditionalInfo
        case (.identity, .reservedAdditionalInfo): StatusCode.identityCborReservedAdditionalInfo
        case (.record, .invalidIndefinite): StatusCode.recordCborInvalidIndefinite
        case (.identity, .invalidIndefinite): StatusCode.identityCborInvalidIndefinite
        case (.record, .lengthTooLarge): StatusCode.recordCborLengthTooLarge
        case (.identity, .lengthTooLarge): StatusCode.identityCborLengthTooLarge
        case (.record, .depthExceeded): StatusCode.recordCborDepthExceeded
        case (.identity, .depthExceeded): StatusCode.identityCborDepthExceeded
        case (.record, .invalidUTF8): StatusCode.recordCborInvalidUTF8
        case (.identity, .invalidUTF8): StatusCode.identityCborInvalidUTF8
        case (.record, .breakOutsideIndefinite): StatusCode.recordCborBreakOutsideIndefinite
        case (.identity, .breakOutsideIndefinite): StatusCode.identityCborBreakOutsideIndefinite
        case (.record, .trailingBytes): StatusCode.recordCborTrailingBytes
        case (.identity, .trailingBytes): StatusCode.identityCborTrailingBytes
        case (.record, .invalidSimple): StatusCode.recordCborInvalidSimple
        case (.identity, .invalidSimple): StatusCode.identityCborInvalidSimple
        }
    }

    public var offset: Int {
        switch self {
        case .truncated(let o), .reservedAdditionalInfo(let o), .invalidIndefinite(let o),
             .lengthTooLarge(let o), .depthExceeded(let o), .invalidUTF8(let o),
             .breakOutsideIndefinite(let o), .trailingBytes(let o), .invalidSimple(let o):
            o
        }
    }

    public var description: String { "\(code) at byte \(offset)" }
}

extension CBOR {
    /// Deepest nesting a decoder accepts.
    public static let maximumDepth = 64

    /// Decodes exactly one item spanning all of `bytes`; trailing bytes are an error.
    public init(decoding bytes: some Collection<UInt8>) throws(CBORError) {
        let buf = Array(bytes)
        var reader = CBORReader(bytes: buf)
        self = try reader.readItem(depth: 0)
        guard reader.offset == buf.count else { throw .trailingBytes(offset: reader.offset) }
    }

    /// Decodes one item from the front of `bytes`; returns it and how many bytes it used.
    public static func decodePrefix(_ bytes: some Collection<UInt8>) throws(CBORError) -> (CBOR, Int) {
        var reader = CBORReader(bytes: Array(bytes))
        let item = try reader.readItem(depth: 0)
        return (item, reader.offset)
    }
}

/// A bounds-checked cursor over CBOR bytes. Never trusts a declared length.
struct CBORReader {
    let bytes: [UInt8]
    var offset = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func readByte() throws(CBORError) -> UInt8 {
        guard offset < bytes.count else { throw .truncated(offset: offset) }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func readBytes(_ n: UInt64) throws(CBORError) -> ArraySlice<UInt8> {
        guard n <= UInt64(bytes.count - offset) else { throw .truncated(offset: offset) }
        let start = offset
        offset += Int(n)
        return bytes[start..<offset]
    }

    mutating func readUInt(_ width: Int) throws(CBORError) -> UInt64 {
        var v: UInt64 = 0
        for _ in 0..<width { v = v << 8 | UInt64(try readByte()) }
        return v
    }

    /// Reads the argument for additional info `ai`; nil means indefinite length (ai 31).
    mutating func readArgument(_ ai: UInt8, at start: Int) throws(CBORError) -> UInt64? {
        switch ai {
        case 0...23: return UInt64(ai)
        case 24: return try readUInt(1)
        case 25: return try readUInt(2)
        case 26: return try readUInt(4)
        case 27: return try readUInt(8)
        case 31: return nil
        default: throw .reservedAdditionalInfo(offset: start)
        }
    }

    mutating func readItem(depth: Int) throws(CBORError) -> CBOR {
        let start = offset
        guard depth <= CBOR.maximumDepth else { throw .depthExceeded(offset: start) }
        let initial = try readByte()
        let major = initial >> 5
        let ai = initial & 0x1f
        if initial == 0xff { throw .breakOutsideIndefinite(offset: start) }
        switch major {
        case 0:
            guard let v = try readArgument(ai, at: start) else { throw .invalidIndefinite(offset: start) }
            return .unsigned(v)
        case 1:
            guard let v = try readArgument(ai, at: start) else { throw .invalidIndefinite(offset: start) }
            return .negative(v)
        case 2, 3:
            var data: [UInt8] = []
            if let n = try readArgument(ai, at: start) {
                data = Array(try readBytes(n))
            } else {
                // Indefinite: definite-length chunks of the same major type until a break.
                while true {
                    let chunkStart = offset
                    let b = try readByte()
                    if b == 0xff { break }
                    guard b >> 5 == major, let n = try readArgument(b & 0x1f, at: chunkStart) else {
                        throw .invalidIndefinite(offset: chunkStart)
                    }
                    data.append(contentsOf: try readBytes(n))
                }
            }
            if major == 2 { return .bytes(data) }
            guard let s = String(validating: data, as: UTF8.self) else { throw .invalidUTF8(offset: start) }
            return .text(s)
        case 4:
            var items: [CBOR] = []
            if let n = try readArgument(ai, at: start) {
                // Each item takes at least one byte: a count beyond what is left is a lie.
                guard n <= UInt64(bytes.count - offset) else { throw .lengthTooLarge(offset: start) }
                items.reserveCapacity(Int(n))
                for _ in 0..<n { items.append(try readItem(depth: depth + 1)) }
            } else {
                while true {
                    guard offset < bytes.count else { throw .truncated(offset: offset) }
                    if bytes[offset] == 0xff { offset += 1; break }
                    items.append(try readItem(depth: depth + 1))
                }
            }
            return .array(items)
        case 5:
            var pairs: [CBORPair] = []
            if let n = try readArgument(ai, at: start) {
                guard n <= UInt64(bytes.count - offset) / 2 else { throw .lengthTooLarge(offset: start) }
                pairs.reserveCapacity(Int(n))
                for _ in 0..<n {
                    let k = try readItem(depth: depth + 1)
                    let v = try readItem(depth: depth + 1)
                    pairs.append(CBORPair(k, v))
                }
            } else {
                while true {
                    guard offset < bytes.count else { throw .truncated(offset: offset) }
                    if bytes[offset] == 0xff { offset += 1; break }
                    let k = try readItem(depth: depth + 1)
                    let v = try readItem(depth: depth + 1)
                    pairs.append(CBORPair(k, v))
                }
            }
            return .map(pairs)
        case 6:
            guard let tag = try readArgument(ai, at: start) else { throw .invalidIndefinite(offset: start) }
            return .tagged(tag, try readItem(depth: depth + 1))
        default: // 7
            switch ai {
            case 20: return .bool(false)
            case 21: return .bool(true)
            case 22: return .null
            case 23: return .undefined
            case 24:
                let v = try readByte()
                guard v >= 32 else { throw .invalidSimple(offset: start) }
                return .simple(v)
            case 25: return .double(Double(halfToFloat(UInt16(try readUInt(2)))))
            case 26: return .double(Double(Float(bitPattern: UInt32(try readUInt(4)))))
            case 27: return .double(Double(bitPattern: try readUInt(8)))
            case 0...19: return .simple(ai)
            default: throw .reservedAdditionalInfo(offset: start)
            }
        }
    }

    private func halfToFloat(_ h: UInt16) -> Float {
        let sign: Float = (h & 0x8000) != 0 ? -1 : 1
        let exp = Int((h >> 10) & 0x1f)
        let mant = Float(h & 0x3ff)
        switch exp {
        case 0: return sign * mant * Float(pow2: -24)
        case 31: return mant == 0 ? sign * .infinity : .nan
        default: return sign * (1 + mant / 1024) * Float(pow2: exp - 15)
        }
    }
}

extension Float {
    fileprivate init(pow2 e: Int) {
        self = Float(sign: .plus, exponent: e, significand: 1)
    }
}

extension ContentID {
    /// Parses 64 lowercase hex digits: the canonical form every format, record and index key
    /// uses. Nil for any other length, an uppercase digit, or any other character.
    public init?(hex: String) {
        self.init(hexDigits: hex, ignoringCase: false)
    }

    /// Parses 64 hex digits of either case (what a person may type on a command line).
    public init?(hexIgnoringCase hex: String) {
        self.init(hexDigits: hex, ignoringCase: true)
    }

    private init?(hexDigits hex: String, ignoringCase: Bool) {
        var text = hex
        let parsed: ContentID? = text.withUTF8 { u in
            guard u.count == ContentID.hexCount else { return nil }
            func word(_ base: Int) -> UInt64? {
                var w: UInt64 = 0
                for i in base..<base + 16 {
                    guard let n = ContentID.nibble(u[i], ignoringCase: ignoringCase) else { return nil }
                    w = w << 4 | UInt64(n)
                }
                return w
            }
            guard let a = word(0), let b = word(16), let c = word(32), let d = word(48) else { return nil }
            return ContentID(words: a, b, c, d)
        }
        guard let parsed else { return nil }
        self = parsed
    }

    /// 64 lowercase hex digits, written straight from the words (one allocation: the string).
    public var hex: String {
        String(unsafeUninitializedCapacity: ContentID.hexCount) { out in
            func put(_ w: UInt64, at base: Int) {
                for j in 0..<16 {
                    let n = UInt8(truncatingIfNeeded: w >> UInt64(60 - 4 * j)) & 0x0f
                    out[base + j] = n < 10 ? 0x30 + n : 0x57 + n
                }
            }
            put(w0, at: 0)
            put(w1, at: 16)
            put(w2, at: 32)
            put(w3, at: 48)
            return ContentID.hexCount
        }
    }

    /// The value of one hex digit (lowercase only unless `ignoringCase`).
    public static func nibble(_ c: UInt8, ignoringCase: Bool = false) -> UInt8? {
        switch c {
        case 0x30...0x39: c - 0x30
        case 0x61...0x66: c - 0x61 + 10
        case 0x41...0x46 where ignoringCase: c - 0x41 + 10
        default: nil
        }
    }

    /// Whether `text` is lowercase hex (any length, possibly empty): a prefix of an ID or of a
    /// fingerprint as the index stores them.
    public static func isLowercaseHex(_ text: String) -> Bool {
        text.utf8.allSatisfy { nibble($0) != nil }
    }
}

extension ContentID: Codable {
    /// Decodes the lowercase hex string the archive writes.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let id = ContentID(hex: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "not 64 lowercase hex digits (a SHA-256)"))
        }
        self = id
    }

    /// Encodes as 64 lowercase hex digits (the same JSON as the hex string it replaces).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(hex)
    }
}

import Ground

// Tests only: the shared vocabularies and content IDs written as the string literals the
// tests were written with (`RecordFilter(integrity: "intact")`, `["audio": "verified"]`,
// `recordId: "ab12…"`). A literal that is not a valid value stops the test at once: the
// typed API is what the products use, so a test cannot pass with a value they could not hold.

extension Integrity: ExpressibleByStringLiteral {
    public init(stringLiteral v: String) { self = Integrity(rawValue: v) ?? { fatalError("not an integrity: \(v)") }() }
}
extension Trust: ExpressibleByStringLiteral {
    public init(stringLiteral v: String) { self = Trust(rawValue: v) ?? { fatalError("not a trust: \(v)") }() }
}
extension MediaKind: ExpressibleByStringLiteral {
    public init(stringLiteral v: String) { self = MediaKind(rawValue: v) ?? { fatalError("not a kind: \(v)") }() }
}
extension SidecarSink: ExpressibleByStringLiteral {
    public init(stringLiteral v: String) { self = SidecarSink(rawValue: v) ?? { fatalError("not a sink: \(v)") }() }
}
extension SidecarState: ExpressibleByStringLiteral {
    public init(stringLiteral v: String) { self = SidecarState(rawValue: v) ?? { fatalError("not a sidecar state: \(v)") }() }
}
extension FileRole: ExpressibleByStringLiteral {
    public init(stringLiteral v: String) { self = FileRole(rawValue: v) ?? { fatalError("not a file role: \(v)") }() }
}
extension ContentID: ExpressibleByStringLiteral {
    public init(stringLiteral v: String) { self = ContentID(hex: v) ?? { fatalError("not 64 lowercase hex digits: \(v)") }() }
}

/// `ContentID(hex:)` that stops the test when `hex` is not an ID.
public func id(_ hex: String) -> ContentID {
    ContentID(hex: hex) ?? { fatalError("not 64 lowercase hex digits: \(hex)") }()
}

/// Tests only: an ID read as its hex text, as the tests were written when IDs were strings.
extension ContentID {
    public func prefix(_ n: Int) -> Substring { hex.prefix(n) }
    public func dropFirst(_ n: Int = 1) -> Substring { hex.dropFirst(n) }
    public func dropLast(_ n: Int = 1) -> Substring { hex.dropLast(n) }
    public func hasPrefix(_ p: String) -> Bool { hex.hasPrefix(p) }
    public func uppercased() -> String { hex.uppercased() }
    public static func + (a: String, b: ContentID) -> String { a + b.hex }
    public static func + (a: ContentID, b: String) -> String { a.hex + b }
}

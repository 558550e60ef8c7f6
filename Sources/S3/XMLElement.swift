/// An element of an S3 XML document: its name, its own text (entities decoded, surrounding
/// whitespace kept) and its child elements. Attributes (only `xmlns` in S3's answers) are read
/// and dropped.
public struct XMLElement: Sendable, Equatable {
    public var name: String
    public var text: String
    public var children: [XMLElement]

    public init(name: String, text: String = "", children: [XMLElement] = []) {
        self.name = name
        self.text = text
        self.children = children
    }

    /// The first child named `name`.
    public func child(_ name: String) -> XMLElement? { children.first { $0.name == name } }

    /// Every child named `name`, in document order.
    public func children(_ name: String) -> [XMLElement] { children.filter { $0.name == name } }

    /// The text of the child `name`; throws `s3.response.malformed` when it is absent.
    public func required(_ name: String) throws(S3Error) -> String {
        guard let c = child(name) else { throw S3Error(.malformedResponse, "<\(self.name)> has no <\(name)>") }
        return c.text
    }

    /// The text of child `name` as a non-negative integer; throws when absent or not digits.
    public func requiredInteger(_ name: String) throws(S3Error) -> Int64 {
        let text = try required(name)
        guard let n = S3Error.parseDecimal(text) else {
            throw S3Error(.malformedResponse, "<\(name)> is not a non-negative integer")
        }
        return n
    }
}

/// Calls `body` with every one-byte change of `bytes` to each of `replacements` (other than the
/// byte there) and every one-byte deletion, each with what it did: the inputs the strict JSON
/// readers' tests give both their reader and `JSONDecoder`.
public func forEachOneByteMutation(of bytes: [UInt8], replacements: [UInt8], _ body: ([UInt8], String) -> Void) {
    var m = bytes
    for i in bytes.indices {
        for x in replacements where x != bytes[i] {
            m[i] = x
            body(m, "byte \(i) → \(x)")
        }
        m[i] = bytes[i]
        var d = bytes
        d.remove(at: i)
        body(d, "byte \(i) deleted")
    }
}

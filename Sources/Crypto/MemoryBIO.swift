import COpenSSL
import Ground

/// An in-memory OpenSSL `BIO`, owned and freed by this class. Internal plumbing for PEM and
/// text output; never escapes the module.
final class MemoryBIO {
    let bio: OpaquePointer

    /// An empty, writable BIO.
    init() throws(CryptoError) {
        guard let b = BIO_new(BIO_s_mem()) else { throw CryptoError.openssl(StatusCode.bioAlloc, "BIO_new") }
        bio = b
    }

    /// A BIO holding a copy of `bytes`, for reading.
    init(_ bytes: [UInt8]) throws(CryptoError) {
        guard let b = BIO_new(BIO_s_mem()) else { throw CryptoError.openssl(StatusCode.bioAlloc, "BIO_new") }
        bio = b
        if !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { BIO_write(b, $0.baseAddress, Int32($0.count)) }
            guard written == Int32(bytes.count) else { throw CryptoError.openssl(StatusCode.bioWrite, "BIO_write") }
        }
    }

    deinit { BIO_free(bio) }

    /// Everything written so far.
    func contents() -> [UInt8] {
        let pending = Int(BIO_ctrl_pending(bio))
        guard pending > 0 else { return [] }
        var out = [UInt8](repeating: 0, count: pending)
        let n = out.withUnsafeMutableBytes { BIO_read(bio, $0.baseAddress, Int32(pending)) }
        return n > 0 ? Array(out.prefix(Int(n))) : []
    }

    func string() -> String { String(decoding: contents(), as: UTF8.self) }
}

/// DER-encodes an OpenSSL object with an `i2d_*` function into a Swift buffer, so OpenSSL never
/// allocates the output for us.
func encodeDER(_ i2d: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int32) -> [UInt8]? {
    let length = i2d(nil)
    guard length > 0 else { return nil }
    var out = [UInt8](repeating: 0, count: Int(length))
    let written: Int32 = out.withUnsafeMutableBufferPointer { buf in
        var p: UnsafeMutablePointer<UInt8>? = buf.baseAddress
        return i2d(&p)
    }
    return written == length ? out : nil
}

/// Decodes DER with a `d2i_*` function and insists that every byte was consumed.
func decodeDER<T>(_ bytes: [UInt8], what: String, free: (T) -> Void,
                  _ d2i: (UnsafeMutablePointer<UnsafePointer<UInt8>?>, Int) -> T?) throws(CryptoError) -> T {
    guard !bytes.isEmpty else { throw CryptoError(StatusCode.derEmpty, "\(what): no bytes") }
    let result: (T?, Int) = bytes.withUnsafeBufferPointer { buf in
        var p: UnsafePointer<UInt8>? = buf.baseAddress
        let obj = d2i(&p, buf.count)
        guard let base = buf.baseAddress, let end = p else { return (obj, 0) }
        let used = end - base
        return (obj, used)
    }
    guard let obj = result.0 else { throw CryptoError.openssl(StatusCode.derMalformed, "d2i \(what)") }
    guard result.1 == bytes.count else {
        free(obj)
        throw CryptoError(StatusCode.derTrailingBytes, "\(what): \(bytes.count - result.1) trailing bytes after the DER value")
    }
    return obj
}

/// Text of an `ASN1_OBJECT` in dotted form (`"1.3.6.1.5.5.7.3.4"`).
func dottedOID(_ obj: OpaquePointer?) -> String {
    guard let obj else { return "" }
    var buf = [CChar](repeating: 0, count: 128)
    let n = OBJ_obj2txt(&buf, Int32(buf.count), obj, 1)
    guard n > 0 else { return "" }
    return String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

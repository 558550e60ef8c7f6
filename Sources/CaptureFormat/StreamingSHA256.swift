import Crypto
import Ground

/// A streaming SHA-256 that yields a `ContentID`.
final class StreamingSHA256 {
    private let md = MessageDigest(.sha256)
    func update(_ b: UnsafeRawBufferPointer) { md.update(b) }
    func finalize() -> ContentID { md.finalizeID() }
}

import Crypto

/// A streaming SHA-256 that yields a `ContentDigest`.
final class StreamingSHA256 {
    private let md = MessageDigest(.sha256)
    func update(_ b: UnsafeRawBufferPointer) { md.update(b) }
    func finalize() -> ContentDigest { ContentDigest(unchecked: md.finalize()) }
}

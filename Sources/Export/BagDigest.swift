import Crypto
import Foundation
import Ground

/// A BagIt checksum algorithm (RFC 8493 §2.4): the `<alg>` of `manifest-<alg>.txt` and
/// `tagmanifest-<alg>.txt`, spelt as bagit-python spells it (Python's `hashlib` names).
///
/// `verify-export` checks the manifests of every algorithm here — the ones bagit-python
/// writes (its defaults are sha256 and sha512) — and `export --digest` writes any of them
/// but md5 and sha1, which RFC 8493 §2.4 says new bags should not use.
public enum BagDigest: String, CaseIterable, Sendable, Comparable {
    case md5, sha1, sha224, sha256, sha384, sha512
    case sha3_224, sha3_256, sha3_384, sha3_512
    case blake2b, blake2s

    /// OpenSSL's name of the algorithm (BLAKE2 at the lengths Python's defaults give).
    var openSSLName: String {
        switch self {
        case .md5: "MD5"
        case .sha1: "SHA1"
        case .sha224: "SHA2-224"
        case .sha256: "SHA2-256"
        case .sha384: "SHA2-384"
        case .sha512: "SHA2-512"
        case .sha3_224: "SHA3-224"
        case .sha3_256: "SHA3-256"
        case .sha3_384: "SHA3-384"
        case .sha3_512: "SHA3-512"
        case .blake2b: "BLAKE2B-512"
        case .blake2s: "BLAKE2S-256"
        }
    }

    /// Length of the digest in lowercase hex.
    public var hexLength: Int {
        switch self {
        case .md5: 32
        case .sha1: 40
        case .sha224, .sha3_224: 56
        case .sha256, .sha3_256, .blake2s: 64
        case .sha384, .sha3_384: 96
        case .sha512, .sha3_512, .blake2b: 128
        }
    }

    /// Whether `export --digest` may write it (not md5 or sha1).
    public var isWritable: Bool { self != .md5 && self != .sha1 }

    /// The hasher. OpenSSL 3 has every algorithm of the list; nil only on a build without one.
    func hasher() -> NamedDigest? { NamedDigest(openSSLName: openSSLName) }

    public var payloadManifest: String { "manifest-\(rawValue).txt" }
    public var tagManifest: String { "tagmanifest-\(rawValue).txt" }

    /// The algorithm of a manifest file name (`manifest-sha512.txt` → sha512, tag: false).
    static func manifest(named name: String) -> (digest: BagDigest, tag: Bool)? {
        for (prefix, tag) in [("tagmanifest-", true), ("manifest-", false)] where name.hasPrefix(prefix) && name.hasSuffix(".txt") {
            let alg = String(name.dropFirst(prefix.count).dropLast(4))
            return BagDigest(rawValue: alg).map { ($0, tag) }
        }
        return nil
    }

    public static func < (a: BagDigest, b: BagDigest) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }

    /// Hex digests of `bytes` under each algorithm.
    static func digests(of bytes: [UInt8], _ algorithms: [BagDigest]) -> [BagDigest: String] {
        var out: [BagDigest: String] = [:]
        for a in algorithms {
            guard let h = a.hasher() else { continue }
            h.update(bytes)
            out[a] = Hex.encode(h.finalize())
        }
        return out
    }

    /// Hex digests and size of a regular file, read once in 1 MiB blocks for every algorithm
    /// (opened with `O_NOFOLLOW`); nil when it cannot be opened or read.
    static func digests(ofFile path: String, _ algorithms: [BagDigest]) -> (digests: [BagDigest: String], size: UInt64)? {
        guard let file = try? FileByteSource(opening: path, limit: FileLimits.defaultMaxFileBytes) else { return nil }
        let hashers = algorithms.compactMap { a in a.hasher().map { (a, $0) } }
        do {
            try file.forEachChunkInPlace(in: 0..<file.count) { chunk in for (_, h) in hashers { h.update(chunk) } }
        } catch { return nil }
        var out: [BagDigest: String] = [:]
        for (a, h) in hashers { out[a] = Hex.encode(h.finalize()) }
        return (out, UInt64(file.count))
    }
}

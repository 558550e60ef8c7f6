import Ground

/// The `certificates` field of a CMS `ContentInfo { contentType, [0] EXPLICIT SignedData }`
/// (RFC 5652 §5.1), split off so the CMS can be parsed without it and the certificates taken
/// from a cache of parsed certificates.
///
/// Why: OpenSSL 3 decodes every carried certificate's public key through its decoder framework
/// on each `d2i_CMS_ContentInfo`, and a batch of time-stamp tokens from one TSA carries the same
/// certificates every time. The certificates are outside what the SignerInfo signs (RFC 5652
/// §5.4: the signature covers the signed attributes, which bind the eContent digest), so the
/// signature check is the same with the certificates supplied beside the CMS.
///
/// A strict, bounded DER walker: content type id-signedData, minimal definite lengths only
/// (at most 4 length bytes), low tag
/// numbers only, every length checked against its parent, no trailing bytes, the certificate
/// set holding only `Certificate` SEQUENCEs (at most `maxCertificates`). Anything else —
/// BER, other certificate choices, no certificates field — gives nil, and the caller parses
/// the token as a whole, as before (so a malformed token fails exactly as it always did).
enum SignedDataCertificates {
    static let maxCertificates = 16
    /// `06 09` + id-signedData, 1.2.840.113549.1.7.2.
    static let signedDataOID: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]

    /// The ContentInfo DER re-encoded without SignedData's `certificates` field, and each
    /// certificate's DER in order; nil when the token is not in the simple shape above.
    static func split(_ der: [UInt8]) -> (stripped: [UInt8], certificates: [[UInt8]])? {
        guard let top = TLV.read(der, at: 0, end: der.count), top.tag == 0x30, top.end == der.count,
              let oid = TLV.read(der, at: top.contentStart, end: top.end), oid.tag == 0x06,
              der[oid.start..<oid.end].elementsEqual(signedDataOID),
              let explicit = TLV.read(der, at: oid.end, end: top.end), explicit.tag == 0xA0, explicit.end == top.end,
              let signedData = TLV.read(der, at: explicit.contentStart, end: explicit.end), signedData.tag == 0x30,
              signedData.end == explicit.end else { return nil }
        var kept: [UInt8] = []
        kept.reserveCapacity(signedData.end - signedData.contentStart)
        var certificates: [[UInt8]]?
        var at = signedData.contentStart
        while at < signedData.end {
            guard let child = TLV.read(der, at: at, end: signedData.end) else { return nil }
            if child.tag == 0xA0 {
                guard certificates == nil, let certs = certificateDERs(der, in: child) else { return nil }
                certificates = certs
            } else {
                kept.append(contentsOf: der[child.start..<child.end])
            }
            at = child.end
        }
        guard let certificates else { return nil }
        let newSignedData = TLV.encode(tag: 0x30, kept)
        let newExplicit = TLV.encode(tag: 0xA0, newSignedData)
        return (TLV.encode(tag: 0x30, Array(der[oid.start..<oid.end]) + newExplicit), certificates)
    }

    /// The elements of the `[0] IMPLICIT CertificateSet`, each a SEQUENCE, as DER slices.
    private static func certificateDERs(_ der: [UInt8], in set: TLV) -> [[UInt8]]? {
        var out: [[UInt8]] = []
        var at = set.contentStart
        while at < set.end {
            guard out.count < maxCertificates, let cert = TLV.read(der, at: at, end: set.end), cert.tag == 0x30 else { return nil }
            out.append(Array(der[cert.start..<cert.end]))
            at = cert.end
        }
        return out
    }

    /// One tag-length-value header: the element spans `start..<end`, its content `contentStart..<end`.
    struct TLV {
        let tag: UInt8
        let start: Int
        let contentStart: Int
        let end: Int

        /// The element at `at`, which must end by `end`; nil for a high tag number, an
        /// indefinite, non-minimal or over-long length, or a length past `end`.
        static func read(_ b: [UInt8], at: Int, end: Int) -> TLV? {
            guard at >= 0, end <= b.count, at + 2 <= end else { return nil }
            let tag = b[at]
            guard tag & 0x1F != 0x1F else { return nil }
            let first = b[at + 1]
            var length = 0
            var header = 2
            if first < 0x80 {
                length = Int(first)
            } else {
                let n = Int(first & 0x7F)
                guard n >= 1, n <= 4, at + 2 + n <= end else { return nil }
                for i in 0..<n { length = length << 8 | Int(b[at + 2 + i]) }
                // DER: the shortest form only (no leading zero byte, long form only from 128).
                guard b[at + 2] != 0, length >= 0x80 else { return nil }
                header += n
            }
            guard length <= end - at - header else { return nil }
            return TLV(tag: tag, start: at, contentStart: at + header, end: at + header + length)
        }

        /// `tag`, the minimal DER length of `content`, then `content`.
        static func encode(tag: UInt8, _ content: [UInt8]) -> [UInt8] {
            var out: [UInt8] = [tag]
            let n = content.count
            if n < 0x80 {
                out.append(UInt8(n))
            } else {
                var bytes: [UInt8] = []
                var v = n
                while v > 0 { bytes.insert(UInt8(v & 0xFF), at: 0); v >>= 8 }
                out.append(0x80 | UInt8(bytes.count))
                out.append(contentsOf: bytes)
            }
            out.append(contentsOf: content)
            return out
        }
    }
}

/// Certificates carried in time-stamp tokens, parsed once per distinct DER (bounded; cleared
/// when full). `Certificate` is read-only after init, so entries are shared across threads.
enum CarriedCertificateCache {
    static let capacity = 256
    private static let entries = Locked<[[UInt8]: Certificate]>([:])

    /// The parsed certificate for `der`; nil when it does not parse as one DER certificate.
    static func certificate(_ der: [UInt8]) -> Certificate? {
        if let hit = entries.withLock({ $0[der] }) { return hit }
        guard let c = try? Certificate(der: der) else { return nil }
        entries.withLock {
            if $0.count >= capacity { $0.removeAll() }
            $0[der] = c
        }
        return c
    }
}

import Crypto
import Foundation

/// AWS Signature Version 4, header form (`Authorization: AWS4-HMAC-SHA256 …`), for service `s3`.
/// Every header of the request is signed. `x-amz-content-sha256` is the body's own SHA-256, so
/// a server that checks it (AWS, Ceph RGW) refuses a body that is not the one we hashed.
struct SigV4 {
    let credentials: S3Credentials
    let region: String
    static let service = "s3"
    /// SHA-256 of the empty body.
    static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    /// Adds `x-amz-date`, `x-amz-content-sha256`, `x-amz-security-token` (with a session token)
    /// and `Authorization` to `headers` (which must hold `host`).
    func sign(method: String, path: String, query: [(String, String)], headers: inout [(name: String, value: String)],
              payloadHash: String, date: Date) {
        let (amzDate, day) = Self.timestamps(date)
        headers.append(("x-amz-date", amzDate))
        headers.append(("x-amz-content-sha256", payloadHash))
        if let token = credentials.sessionToken { headers.append(("x-amz-security-token", token)) }
        let canonical = headers.map { (name: $0.name.lowercased(), value: Self.trim($0.value)) }.sorted { $0.name < $1.name }
        let signedHeaders = canonical.map(\.name).joined(separator: ";")
        let canonicalRequest = [
            method,
            path.isEmpty ? "/" : path,
            Self.canonicalQuery(query),
            canonical.map { "\($0.name):\($0.value)\n" }.joined(),
            signedHeaders,
            payloadHash,
        ].joined(separator: "\n")
        let scope = "\(day)/\(region)/\(Self.service)/aws4_request"
        let stringToSign = "AWS4-HMAC-SHA256\n\(amzDate)\n\(scope)\n\(Hex.encode(MessageDigest.sha256(Array(canonicalRequest.utf8))))"
        let signature = Hex.encode(HMAC.sha256(key: signingKey(day: day), Array(stringToSign.utf8)))
        headers.append(("Authorization", "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(scope), SignedHeaders=\(signedHeaders), Signature=\(signature)"))
    }

    func signingKey(day: String) -> [UInt8] {
        var key = HMAC.sha256(key: Array("AWS4\(credentials.secretAccessKey)".utf8), Array(day.utf8))
        for part in [region, Self.service, "aws4_request"] { key = HMAC.sha256(key: key, Array(part.utf8)) }
        return key
    }

    /// `key=value` pairs, both URI-encoded, sorted by key then value, joined by `&`.
    static func canonicalQuery(_ query: [(String, String)]) -> String {
        let encoded: [(key: String, value: String)] = query.map { pair in
            (key: encode(pair.0, keepSlash: false), value: encode(pair.1, keepSlash: false))
        }
        let sorted = encoded.sorted { a, b in a.key == b.key ? a.value < b.value : a.key < b.key }
        return sorted.map { pair in pair.key + "=" + pair.value }.joined(separator: "&")
    }

    /// RFC 3986 percent-encoding of everything but `A-Z a-z 0-9 - _ . ~` (and `/` in paths),
    /// upper-case hex, as SigV4 wants.
    static func encode(_ text: String, keepSlash: Bool) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for c in text.utf8 {
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                out.append(c)
            case UInt8(ascii: "/") where keepSlash:
                out.append(c)
            default:
                out += [UInt8(ascii: "%"), hex[Int(c >> 4)], hex[Int(c & 15)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Leading/trailing spaces removed, inner runs of spaces collapsed to one.
    static func trim(_ value: String) -> String {
        value.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }

    /// (`20130524T000000Z`, `20130524`) in UTC.
    static func timestamps(_ date: Date) -> (String, String) {
        let c = UTCTime(date)
        let day = String(format: "%04d%02d%02d", c.year, c.month, c.day)
        return (day + String(format: "T%02d%02d%02dZ", c.hour, c.minute, c.second), day)
    }
}

/// A date's UTC calendar fields, and ISO 8601 (`2026-12-01T21:28:20Z`) both ways.
struct UTCTime {
    var year, month, day, hour, minute, second: Int

    init(_ date: Date) {
        var t = time_t(date.timeIntervalSince1970.rounded(.down))
        var tm = tm()
        gmtime_r(&t, &tm)
        (year, month, day) = (Int(tm.tm_year) + 1900, Int(tm.tm_mon) + 1, Int(tm.tm_mday))
        (hour, minute, second) = (Int(tm.tm_hour), Int(tm.tm_min), Int(tm.tm_sec))
    }

    static func iso8601(_ date: Date) -> String {
        let c = UTCTime(date)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02dZ", c.year, c.month, c.day, c.hour, c.minute, c.second)
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction]Z` strictly; nil otherwise.
    static func parseISO8601(_ text: String) -> Date? {
        let b = Array(text.utf8)
        guard b.count >= 20, b.count <= 40, b.last == UInt8(ascii: "Z") else { return nil }
        func num(_ r: Range<Int>) -> Int? {
            guard b[r].allSatisfy({ (48...57).contains($0) }) else { return nil }
            return Int(String(decoding: b[r], as: UTF8.self))
        }
        guard b[4] == 45, b[7] == 45, b[10] == 84, b[13] == 58, b[16] == 58,
              let y = num(0..<4), let mo = num(5..<7), let d = num(8..<10),
              let h = num(11..<13), let mi = num(14..<16), let s = num(17..<19),
              (1...12).contains(mo), (1...31).contains(d), h < 24, mi < 60, s < 61 else { return nil }
        var fraction = 0.0
        if b.count > 20 {
            guard b[19] == 46, b.count > 21, let f = num(20..<(b.count - 1)) else { return nil }
            fraction = Double(f) / pow(10, Double(b.count - 21))
        } else if b[19] != UInt8(ascii: "Z") { return nil }
        var tm = tm()
        (tm.tm_year, tm.tm_mon, tm.tm_mday) = (Int32(y - 1900), Int32(mo - 1), Int32(d))
        (tm.tm_hour, tm.tm_min, tm.tm_sec) = (Int32(h), Int32(mi), Int32(s))
        return Date(timeIntervalSince1970: Double(timegm(&tm)) + fraction)
    }
}

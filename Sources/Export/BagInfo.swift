import Foundation

/// The `bag-info.txt` metadata (RFC 8493 §2.2.2): `Label: value` lines, UTF-8.
///
/// Written fields, in order: `Source-Organization`, `Contact-Name` (the operator),
/// `External-Identifier`, `External-Description`, `Exhibit-Case`, `Bagging-Date`
/// (YYYY-MM-DD), `Bag-Software-Agent`, `Payload-Oxum` (`bytes.files`) and `Bag-Size`
/// (human-readable). Values are single lines (CR/LF become spaces).
public struct BagInfo: Sendable, Equatable {
    public var sourceOrganization: String
    public var contactName: String
    public var externalIdentifier: String
    public var externalDescription: String
    public var caseName: String?
    public var baggingDate: Date
    public var softwareAgent: String

    public init(sourceOrganization: String, contactName: String, externalIdentifier: String,
                externalDescription: String, caseName: String?, baggingDate: Date, softwareAgent: String) {
        self.sourceOrganization = sourceOrganization
        self.contactName = contactName
        self.externalIdentifier = externalIdentifier
        self.externalDescription = externalDescription
        self.caseName = caseName
        self.baggingDate = baggingDate
        self.softwareAgent = softwareAgent
    }

    public func text(payloadBytes: UInt64, payloadFiles: Int) -> String {
        var lines: [(String, String)] = [
            ("Source-Organization", sourceOrganization),
            ("Contact-Name", contactName),
            ("External-Identifier", externalIdentifier),
            ("External-Description", externalDescription),
        ]
        if let caseName { lines.append(("Exhibit-Case", caseName)) }
        lines += [
            ("Bagging-Date", Self.day(baggingDate)),
            ("Bag-Software-Agent", softwareAgent),
            ("Payload-Oxum", "\(payloadBytes).\(payloadFiles)"),
            ("Bag-Size", Self.humanSize(payloadBytes)),
        ]
        return lines.map { "\($0.0): \(Self.oneLine($0.1))\n" }.joined()
    }

    /// `YYYY-MM-DD` in UTC.
    static func day(_ date: Date) -> String {
        String(ISO8601.string(date).prefix(10))
    }

    /// Decimal units, one decimal place: `812 B`, `1.5 kB`, `12.3 MB`, `2.0 GB`.
    public static func humanSize(_ bytes: UInt64) -> String {
        let units = ["B", "kB", "MB", "GB", "TB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return unit == 0 ? "\(bytes) B" : String(format: "%.1f %@", value, units[unit])
    }

    static func oneLine(_ s: String) -> String {
        s.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
    }
}

/// ISO 8601 UTC timestamps with milliseconds (`2026-12-01T03:04:05.678Z`).
enum ISO8601 {
    static func string(_ date: Date) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        f.timeZone = TimeZone(identifier: "UTC")
        return f.string(from: date)
    }
}

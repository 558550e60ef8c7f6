import Foundation
import Ground

/// A reader of the JSON shape reports are written in (`jsonBytes()`) while their media
/// analyses are pending, beside Foundation's `JSONDecoder` with `.iso8601` dates: `analyze`
/// decodes every stored report, and `JSONDecoder`'s `Codable` walk was most of that cost.
///
/// It accepts only a strict subset of JSON (`Ground.StrictJSONReader`), in which it decodes
/// exactly what `JSONDecoder` decodes: each object holds only the type's own keys, each at most
/// once; no `null`; numbers as `Double.description` writes them; `genTime` as `.iso8601`
/// writes it (`YYYY-MM-DDTHH:MM:SSZ`, years 1970–9999, a real day and time). A report holding
/// the analyses' own results (`media`, `parallax`, `streamedChunks.recomputation`) is left to
/// `JSONDecoder` too, as is anything else — every damaged report with its error text.
/// `StrictReportJSONTests` compares the two readers on written reports and mutations of one.
extension CaptureReport {
    public init?(strictJSON buffer: UnsafeRawBufferPointer) {
        var r = StrictJSONReader(buffer)
        guard let report = r.captureReport(), r.atEnd() else { return nil }
        self = report
    }

    /// The stored report `json`, as `JSONDecoder` with `.iso8601` dates decodes it.
    public static func decode(_ json: Data) throws -> CaptureReport {
        if let report = json.withUnsafeBytes({ CaptureReport(strictJSON: $0) }) { return report }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(CaptureReport.self, from: json)
    }
}

private extension StrictJSONReader {
    mutating func captureReport() -> CaptureReport? {
        var path, captureTime, timeRung, container, activeManifest, c2paReason, recordAssertion, contextTree: String?
        var sha256, recordId: ContentID?
        var size: UInt64?
        var kind: MediaKind?
        var integrity: Integrity?
        var signer: CaptureReport.Signer?
        var timestamp: C2PAReport.Timestamp?
        var statusCodes: CaptureReport.StatusCodes?
        var sidecars: [CaptureReport.Sidecar]?
        var unreferenced, limits, ringRejected: [String]?
        var disclosure: [CaptureReport.Disclosure]?
        var streamedChunks: CaptureReport.StreamedChunks?
        var context: CaptureReport.Context?
        var files: [CaptureReport.File]?
        var error, recordError: CaptureReport.ItemError?
        let ok = object { r, key in
            switch key {
            case "path": return readOnce(&path) { r.escapedString() }
            case "sha256": return readOnce(&sha256) { r.contentID() }
            case "size": return readOnce(&size) { r.uint64() }
            case "recordId": return readOnce(&recordId) { r.contentID() }
            case "kind": return readOnce(&kind) { r.vocabulary(MediaKind.self) }
            case "integrity": return readOnce(&integrity) { r.vocabulary(Integrity.self) }
            case "signer": return readOnce(&signer) { r.signer() }
            case "timestamp": return readOnce(&timestamp) { r.timestamp() }
            case "captureTime": return readOnce(&captureTime) { r.escapedString() }
            case "timeRung": return readOnce(&timeRung) { r.escapedString() }
            case "statusCodes": return readOnce(&statusCodes) { r.statusCodes() }
            case "sidecars": return readOnce(&sidecars) { r.array { $0.sidecar() } }
            case "unreferenced": return readOnce(&unreferenced) { r.escapedStrings() }
            case "disclosure": return readOnce(&disclosure) { r.array { $0.disclosure() } }
            case "streamedChunks": return readOnce(&streamedChunks) { r.streamedChunks() }
            case "context": return readOnce(&context) { r.context() }
            case "limits": return readOnce(&limits) { r.escapedStrings() }
            case "files": return readOnce(&files) { r.array { $0.file() } }
            case "error": return readOnce(&error) { r.itemError() }
            case "container": return readOnce(&container) { r.escapedString() }
            case "activeManifest": return readOnce(&activeManifest) { r.escapedString() }
            case "c2paReason": return readOnce(&c2paReason) { r.escapedString() }
            case "recordAssertion": return readOnce(&recordAssertion) { r.escapedString() }
            case "contextTree": return readOnce(&contextTree) { r.escapedString() }
            case "recordError": return readOnce(&recordError) { r.itemError() }
            case "ringRejected": return readOnce(&ringRejected) { r.escapedStrings() }
            default: return false // `media`, `parallax`: JSONDecoder's
            }
        }
        guard ok, let path, let kind, let integrity, let timestamp, let statusCodes, let sidecars, let unreferenced,
              let disclosure, let limits, let files else { return nil }
        var report = CaptureReport(path: path, kind: kind, integrity: integrity, timestamp: timestamp)
        report.sha256 = sha256
        report.size = size
        report.recordId = recordId
        report.signer = signer
        report.captureTime = captureTime
        report.timeRung = timeRung
        report.statusCodes = statusCodes
        report.sidecars = sidecars
        report.unreferenced = unreferenced
        report.disclosure = disclosure
        report.streamedChunks = streamedChunks
        report.context = context
        report.limits = limits
        report.files = files
        report.error = error
        report.container = container
        report.activeManifest = activeManifest
        report.c2paReason = c2paReason
        report.recordAssertion = recordAssertion
        report.contextTree = contextTree
        report.recordError = recordError
        report.ringRejected = ringRejected
        return report
    }

    mutating func signer() -> CaptureReport.Signer? {
        var keyFingerprint: ContentID?
        var subject, issuer, algorithm: String?
        var trust: Trust?
        let ok = object { r, key in
            switch key {
            case "keyFingerprint": return readOnce(&keyFingerprint) { r.contentID() }
            case "subject": return readOnce(&subject) { r.escapedString() }
            case "issuer": return readOnce(&issuer) { r.escapedString() }
            case "algorithm": return readOnce(&algorithm) { r.escapedString() }
            case "trust": return readOnce(&trust) { r.vocabulary(Trust.self) }
            default: return false
            }
        }
        guard ok, let keyFingerprint, let subject, let issuer, let trust else { return nil }
        return CaptureReport.Signer(keyFingerprint: keyFingerprint, subject: subject, issuer: issuer, algorithm: algorithm, trust: trust)
    }

    mutating func timestamp() -> C2PAReport.Timestamp? {
        var state, header: String?
        var genTime: Date?
        let ok = object { r, key in
            switch key {
            case "state": return readOnce(&state) { r.escapedString() }
            case "genTime": return readOnce(&genTime) { r.string().flatMap(StrictISO8601.date) }
            case "header": return readOnce(&header) { r.escapedString() }
            default: return false
            }
        }
        guard ok, let state else { return nil }
        return C2PAReport.Timestamp(state: state, genTime: genTime, header: header)
    }

    mutating func statusCodes() -> CaptureReport.StatusCodes? {
        var success, informational, failure: [C2PAReport.Status]?
        let ok = object { r, key in
            switch key {
            case "success": return readOnce(&success) { r.array { $0.status() } }
            case "informational": return readOnce(&informational) { r.array { $0.status() } }
            case "failure": return readOnce(&failure) { r.array { $0.status() } }
            default: return false
            }
        }
        guard ok, let success, let informational, let failure else { return nil }
        return CaptureReport.StatusCodes(success: success, informational: informational, failure: failure)
    }

    mutating func status() -> C2PAReport.Status? {
        var code, url, explanation: String?
        let ok = object { r, key in
            switch key {
            case "code": return readOnce(&code) { r.escapedString() }
            case "url": return readOnce(&url) { r.escapedString() }
            case "explanation": return readOnce(&explanation) { r.escapedString() }
            default: return false
            }
        }
        guard ok, let code else { return nil }
        return C2PAReport.Status(code: code, url: url, explanation: explanation)
    }

    mutating func sidecar() -> CaptureReport.Sidecar? {
        var sink: SidecarSink?
        var state: SidecarState?
        var committed, actual: ContentID?
        var file, recordedPath: String?
        var notes: [String]?
        let ok = object { r, key in
            switch key {
            case "sink": return readOnce(&sink) { r.vocabulary(SidecarSink.self) }
            case "state": return readOnce(&state) { r.vocabulary(SidecarState.self) }
            case "committedSha256": return readOnce(&committed) { r.contentID() }
            case "actualSha256": return readOnce(&actual) { r.contentID() }
            case "file": return readOnce(&file) { r.escapedString() }
            case "recordedPath": return readOnce(&recordedPath) { r.escapedString() }
            case "notes": return readOnce(&notes) { r.escapedStrings() }
            default: return false
            }
        }
        guard ok, let sink, let state, let notes else { return nil }
        return CaptureReport.Sidecar(sink: sink, state: state, committedSha256: committed, actualSha256: actual, file: file,
                                     recordedPath: recordedPath, notes: notes)
    }

    mutating func disclosure() -> CaptureReport.Disclosure? {
        var file, profile, result: String?
        var failures: [CaptureReport.Disclosure.Failure]?
        var openedLeaves, withheldCount: Int?
        let ok = object { r, key in
            switch key {
            case "file": return readOnce(&file) { r.escapedString() }
            case "profile": return readOnce(&profile) { r.escapedString() }
            case "result": return readOnce(&result) { r.escapedString() }
            case "failures": return readOnce(&failures) { r.array { $0.disclosureFailure() } }
            case "openedLeaves": return readOnce(&openedLeaves) { r.int() }
            case "withheldCount": return readOnce(&withheldCount) { r.int() }
            default: return false
            }
        }
        guard ok, let file, let profile, let result, let failures, let openedLeaves, let withheldCount else { return nil }
        return CaptureReport.Disclosure(file: file, profile: profile, result: result, failures: failures, openedLeaves: openedLeaves,
                                        withheldCount: withheldCount)
    }

    mutating func disclosureFailure() -> CaptureReport.Disclosure.Failure? {
        var label, claimId, detail: String?
        let ok = object { r, key in
            switch key {
            case "label": return readOnce(&label) { r.escapedString() }
            case "claimId": return readOnce(&claimId) { r.escapedString() }
            case "detail": return readOnce(&detail) { r.escapedString() }
            default: return false
            }
        }
        guard ok, let label, let detail else { return nil }
        return CaptureReport.Disclosure.Failure(label: label, claimId: claimId, detail: detail)
    }

    mutating func streamedChunks() -> CaptureReport.StreamedChunks? {
        var state: String?
        var root: ContentID?
        var chunkSize, videoChunks, audioChunks: Int?
        let ok = object { r, key in
            switch key {
            case "state": return readOnce(&state) { r.escapedString() }
            case "root": return readOnce(&root) { r.contentID() }
            case "chunkSize": return readOnce(&chunkSize) { r.int() }
            case "videoChunks": return readOnce(&videoChunks) { r.int() }
            case "audioChunks": return readOnce(&audioChunks) { r.int() }
            default: return false // `recomputation`: JSONDecoder's
            }
        }
        guard ok, let state else { return nil }
        return CaptureReport.StreamedChunks(state: state, root: root, chunkSize: chunkSize, videoChunks: videoChunks, audioChunks: audioChunks)
    }

    mutating func context() -> CaptureReport.Context? {
        var c = CaptureReport.Context()
        var seen = Set<String>()
        let ok = object { r, key in
            guard seen.insert(key).inserted else { return false }
            switch key {
            case "appVersion": return r.set(&c.appVersion) { $0.escapedString() }
            case "captureToSignatureMs": return r.set(&c.captureToSignatureMs) { $0.int() }
            case "sensorIntervalCv": return r.set(&c.sensorIntervalCv) { $0.double() }
            case "poseTrace": return r.set(&c.poseTrace) { $0.poseTrace() }
            case "mainsHz": return r.set(&c.mainsHz) { $0.int() }
            case "mainsHzNote": return r.set(&c.mainsHzNote) { $0.escapedString() }
            case "exposureDurationS": return r.set(&c.exposureDurationS) { $0.double() }
            case "lens": return r.set(&c.lens) { $0.escapedString() }
            case "depth": return r.set(&c.depth) { $0.escapedString() }
            case "secondViewBaselineMm": return r.set(&c.secondViewBaselineMm) { $0.double() }
            case "timeZone": return r.set(&c.timeZone) { $0.escapedString() }
            default: return false
            }
        }
        return ok ? c : nil
    }

    /// Reads a value into `slot` (false when refused).
    mutating func set<T>(_ slot: inout T?, _ read: (inout StrictJSONReader) -> T?) -> Bool {
        slot = read(&self)
        return slot != nil
    }

    mutating func poseTrace() -> CaptureReport.PoseTraceSummary? {
        var count, startOffsetMs: Int?
        var rateHz: Double?
        let ok = object { r, key in
            switch key {
            case "count": return readOnce(&count) { r.int() }
            case "rateHz": return readOnce(&rateHz) { r.double() }
            case "startOffsetMs": return readOnce(&startOffsetMs) { r.int() }
            default: return false
            }
        }
        guard ok, let count, let rateHz, let startOffsetMs else { return nil }
        return CaptureReport.PoseTraceSummary(count: count, rateHz: rateHz, startOffsetMs: startOffsetMs)
    }

    mutating func file() -> CaptureReport.File? {
        var role: FileRole?
        var path, relativePath: String?
        var sha256: ContentID?
        var size: UInt64?
        let ok = object { r, key in
            switch key {
            case "role": return readOnce(&role) { r.vocabulary(FileRole.self) }
            case "path": return readOnce(&path) { r.escapedString() }
            case "relativePath": return readOnce(&relativePath) { r.escapedString() }
            case "sha256": return readOnce(&sha256) { r.contentID() }
            case "size": return readOnce(&size) { r.uint64() }
            default: return false
            }
        }
        guard ok, let role, let path, let relativePath, let sha256, let size else { return nil }
        return CaptureReport.File(role: role, path: path, relativePath: relativePath, sha256: sha256, size: size)
    }

    mutating func itemError() -> CaptureReport.ItemError? {
        var code, message: String?
        let ok = object { r, key in
            switch key {
            case "code": return readOnce(&code) { r.escapedString() }
            case "message": return readOnce(&message) { r.escapedString() }
            default: return false
            }
        }
        guard ok, let code, let message else { return nil }
        return CaptureReport.ItemError(code: code, message: message)
    }
}

/// `YYYY-MM-DDTHH:MM:SSZ` as `.iso8601` writes a date (UTC, whole seconds), for years
/// 1970–9999 and real days and times only; anything else is nil (left to `JSONDecoder`).
enum StrictISO8601 {
    static func date(_ s: String) -> Date? {
        let b = Array(s.utf8)
        guard b.count == 20, b[4] == 0x2d, b[7] == 0x2d, b[10] == 0x54, b[13] == 0x3a, b[16] == 0x3a, b[19] == 0x5a else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var v = 0
            for i in range {
                guard (0x30...0x39).contains(b[i]) else { return nil }
                v = v * 10 + Int(b[i] - 0x30)
            }
            return v
        }
        guard let y = number(0..<4), let m = number(5..<7), let d = number(8..<10), let h = number(11..<13),
              let mi = number(14..<16), let sec = number(17..<19),
              y >= 1970, (1...12).contains(m), d >= 1, d <= daysIn(month: m, year: y), h < 24, mi < 60, sec < 60 else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(((daysSinceEpoch(year: y, month: m, day: d) * 24 + h) * 60 + mi) * 60 + sec))
    }

    static func daysIn(month m: Int, year y: Int) -> Int {
        switch m {
        case 2: (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to the proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = y / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}

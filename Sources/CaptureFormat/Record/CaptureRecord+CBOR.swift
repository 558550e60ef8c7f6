import C2PA
import Ground

extension CaptureRecord {
    /// The record as a CBOR item (key order irrelevant: `encoded()` sorts deterministically).
    public var cbor: CBOR {
        var top: [(String, CBOR)] = [
            ("recordVersion", .int(CaptureRecord.recordVersion)),
            ("appVersion", .text(appVersion.description)),
            ("mediaKind", .text(mediaKind.rawValue)),
            ("captureTime", .text(captureTime.text)),
        ]
        if let tz = timeZone {
            var z: [(String, CBOR)] = [("offsetMinutes", .int(tz.offsetMinutes))]
            if let id = tz.identifier { z.append(("identifier", .text(id))) }
            top.append(("captureTimeZone", .textMap(z)))
        }
        var integrity: [(String, CBOR)] = [("captureToSignatureMs", .int(captureToSignatureMs))]
        if let cv = sensorIntervalCv { integrity.append(("sensorTiming", .textMap([("intervalCv", .double(cv))]))) }
        top.append(("captureIntegrity", .textMap(integrity)))

        var context: [(String, CBOR)] = [("captureEvidence", evidence.cbor(carriesDigests: true))]
        if let p = poseTrace { context.append(("poseTrace", p.cbor)) }
        if let s = streamedChunks {
            context.append(("streamedChunks", .textMap([
                ("chunkSize", .int(s.chunkSize)), ("root", .text(s.root.hex)),
                ("videoChunks", .int(s.videoChunks)), ("audioChunks", .int(s.audioChunks)),
            ])))
        }
        switch depth {
        case .map(let m)?:
            context.append(("depth", .textMap([
                ("path", .text(m.path)), ("sha256", .text(m.sha256.hex)), ("format", .text(m.format)),
                ("width", .int(m.width)), ("height", .int(m.height)), ("near", .double(m.near)), ("far", .double(m.far)),
                ("gdepthAssertion", .text(m.gdepthAssertion)), ("collectionHashAssertion", .text(m.collectionHashAssertion)),
            ])))
        case .absent(let reason)?:
            context.append(("depth", .textMap([("absent", .bool(true)), ("reason", .text(reason))])))
        case nil: break
        }
        if let m = mainsHz {
            var f: [(String, CBOR)] = [("hz", .int(m.hz)), ("note", .text(m.note))]
            if let e = m.exposureDurationS { f.append(("exposureDurationS", .double(e))) }
            context.append(("mainsHz", .textMap(f)))
        }
        if let l = lens {
            context.append(("lens", .textMap([("camera", .text(l.camera)), ("focalLengthMm", .double(l.focalLengthMm))])))
        }
        if let s = secondView {
            let c = s.calibration
            context.append(("secondView", .textMap([
                ("path", .text(s.path)), ("sha256", .text(s.sha256.hex)), ("camera", .text(s.camera)),
                ("baselineMm", .double(s.baselineMm)),
                ("calibration", .textMap([
                    ("focalLengthPx", .double(c.focalLengthPx)),
                    ("principalPointPx", .array([.double(c.principalPointX), .double(c.principalPointY)])),
                    ("imageWidth", .int(c.imageWidth)), ("imageHeight", .int(c.imageHeight)),
                ])),
            ])))
        }
        top.append(("context", .textMap(context)))
        return .textMap(top)
    }

    /// The assertion's bytes: deterministic CBOR of `cbor`.
    public func encoded() -> [UInt8] { DeterministicCBOR.encode(cbor) }

    /// Reads a record assertion's CBOR bytes (any key order; duplicates and trailing bytes rejected).
    public init(decoding bytes: [UInt8]) throws(CaptureRecordError) {
        let item: CBOR
        do { item = try CBOR(decoding: bytes) } catch { throw .cbor(error) }
        try self.init(cbor: item)
    }

    public init(cbor item: CBOR) throws(CaptureRecordError) {
        let top = try FieldMap(item, path: "")
        let version = try top.int("recordVersion")
        guard version == CaptureRecord.recordVersion else { throw .unsupportedVersion(version) }
        guard let app = AppVersion(try top.text("appVersion")) else {
            throw .invalidValue(field: "appVersion", reason: "not MAJOR.MINOR.PATCH")
        }
        guard let kind = MediaKind(rawValue: try top.text("mediaKind")), kind != .unknown else {
            throw .invalidValue(field: "mediaKind", reason: "not still or video")
        }
        guard let time = CaptureTime(try top.text("captureTime")) else {
            throw .invalidValue(field: "captureTime", reason: "not a prefix of YYYY-MM-DDTHH:MM:SS.sssZ")
        }
        var tz: CaptureTimeZone?
        if let z = try top.optionalMap("captureTimeZone") {
            let off = try z.int("offsetMinutes")
            guard (-1080...1080).contains(off) else { throw .invalidValue(field: z.field("offsetMinutes"), reason: "beyond ±18 h") }
            tz = CaptureTimeZone(offsetMinutes: off, identifier: try z.optionalText("identifier"))
        }
        let integrity = try top.map("captureIntegrity")
        let latency = try integrity.nonNegativeInt("captureToSignatureMs")
        let cv = try integrity.optionalMap("sensorTiming").map { (m) throws(CaptureRecordError) in try m.double("intervalCv") }

        let context = try top.map("context")
        let evidence = try CaptureEvidence(try context.map("captureEvidence"))
        let pose = try context.optionalMap("poseTrace").map { (m) throws(CaptureRecordError) in try PoseTrace(m) }
        var streamed: StreamedChunksRecord?
        if let s = try context.optionalMap("streamedChunks") {
            streamed = StreamedChunksRecord(chunkSize: try s.nonNegativeInt("chunkSize"), root: try s.digest("root"),
                                            videoChunks: try s.nonNegativeInt("videoChunks"),
                                            audioChunks: try s.nonNegativeInt("audioChunks"))
            if streamed?.chunkSize == 0 { throw .invalidValue(field: s.field("chunkSize"), reason: "zero") }
        }
        var depth: DepthRecord?
        if let d = try context.optionalMap("depth") {
            if d.has("absent") {
                guard try d.raw("absent") == .bool(true) else { throw .invalidValue(field: d.field("absent"), reason: "must be true") }
                depth = .absent(reason: try d.text("reason"))
            } else {
                depth = .map(DepthMap(path: try d.text("path"), sha256: try d.digest("sha256"), format: try d.text("format"),
                                      width: try d.nonNegativeInt("width"), height: try d.nonNegativeInt("height"),
                                      near: try d.double("near"), far: try d.double("far"),
                                      gdepthAssertion: try d.text("gdepthAssertion"),
                                      collectionHashAssertion: try d.text("collectionHashAssertion")))
            }
        }
        var mains: MainsHz?
        if let m = try context.optionalMap("mainsHz") {
            mains = MainsHz(hz: try m.nonNegativeInt("hz"), note: try m.text("note"), exposureDurationS: try m.optionalDouble("exposureDurationS"))
        }
        var lens: LensRecord?
        if let l = try context.optionalMap("lens") {
            lens = LensRecord(camera: try l.text("camera"), focalLengthMm: try l.double("focalLengthMm"))
        }
        var second: SecondViewRecord?
        if let s = try context.optionalMap("secondView") {
            let c = try s.map("calibration")
            let pp = try c.raw("principalPointPx")
            guard let arr = pp.arrayValue, arr.count == 2, let cx = arr[0].doubleValue, let cy = arr[1].doubleValue else {
                throw .wrongType(field: c.field("principalPointPx"), expected: "array of 2 numbers")
            }
            second = SecondViewRecord(path: try s.text("path"), sha256: try s.digest("sha256"), camera: try s.text("camera"),
                                      baselineMm: try s.double("baselineMm"),
                                      calibration: .init(focalLengthPx: try c.double("focalLengthPx"), principalPointX: cx,
                                                         principalPointY: cy, imageWidth: try c.nonNegativeInt("imageWidth"),
                                                         imageHeight: try c.nonNegativeInt("imageHeight")))
        }
        self.init(appVersion: app, mediaKind: kind, captureTime: time, timeZone: tz, captureToSignatureMs: latency,
                  sensorIntervalCv: cv, poseTrace: pose, streamedChunks: streamed, evidence: evidence, depth: depth,
                  mainsHz: mains, lens: lens, secondView: second)
    }
}

extension CaptureEvidence {
    static let keys: [(sink: String, digest: String)] = [
        ("rawPcm", "rawPcmSha256"), ("sensorLog", "sensorLogSha256"), ("ringBufferDir", "ringBufferSha256"),
    ]

    var all: [SinkRecord] { [rawPcm, sensorLog, ringBufferDir] }

    func cbor(carriesDigests: Bool) -> CBOR {
        var pairs: [(String, CBOR)] = []
        for (record, k) in zip(all, CaptureEvidence.keys) {
            switch record {
            case .collected(let path, let digest):
                pairs.append((k.sink, .text(path)))
                if let d = digest { pairs.append((k.digest, .text(d.hex))) }
            case .failed: pairs.append((k.sink, .null))
            case .neverRecorded: pairs.append((k.sink, .text(SinkRecord.neverRecordedText)))
            }
        }
        return .textMap(pairs)
    }

    init(_ m: FieldMap) throws(CaptureRecordError) {
        var out: [SinkRecord] = []
        for k in CaptureEvidence.keys {
            let v = try m.raw(k.sink)
            let digest = try m.optionalDigest(k.digest)
            switch v {
            case .null, .text(SinkRecord.neverRecordedText):
                if digest != nil { throw .invalidValue(field: m.field(k.digest), reason: "digest for a sink without a file") }
                out.append(v == .null ? .failed : .neverRecorded)
            case .text(let path):
                guard !path.isEmpty else { throw .invalidValue(field: m.field(k.sink), reason: "empty path") }
                out.append(.collected(path: path, sha256: digest))
            default:
                throw .wrongType(field: m.field(k.sink), expected: "text path, null or \"never-recorded\"")
            }
        }
        self.init(rawPcm: out[0], sensorLog: out[1], ringBufferDir: out[2])
    }
}

extension PoseTrace {
    var cbor: CBOR {
        .textMap([
            ("count", .int(count)), ("rateHz", .double(rateHz)), ("startOffsetMs", .int(startOffsetMs)),
            ("quantization", .textMap([("gyroScale", .double(gyroScale)), ("attitudeScale", .double(attitudeScale))])),
            ("samples", .array(samples.map { .array($0.map { CBOR.int($0) }) })),
        ])
    }

    init(_ m: FieldMap) throws(CaptureRecordError) {
        let count = try m.nonNegativeInt("count")
        let q = try m.map("quantization")
        guard let rows = try m.raw("samples").arrayValue else { throw .wrongType(field: m.field("samples"), expected: "array") }
        guard rows.count == count else { throw .invalidValue(field: m.field("count"), reason: "count \(count) but \(rows.count) samples") }
        var samples: [[Int]] = []
        samples.reserveCapacity(rows.count)
        for (i, r) in rows.enumerated() {
            guard let cells = r.arrayValue, cells.count == 7 else {
                throw .wrongType(field: m.field("samples[\(i)]"), expected: "array of 7 integers")
            }
            var row: [Int] = []
            for c in cells {
                guard let v = c.intValue, v >= Int(Int32.min), v <= Int(Int32.max) else {
                    throw .wrongType(field: m.field("samples[\(i)]"), expected: "32-bit integers")
                }
                row.append(v)
            }
            samples.append(row)
        }
        self.init(rateHz: try m.double("rateHz"), startOffsetMs: try m.int("startOffsetMs"),
                  gyroScale: try q.double("gyroScale"), attitudeScale: try q.double("attitudeScale"), samples: samples)
    }
}

import ArchiveLMDB
import C2PA
import CAS
import CaptureFormat
import Crypto
import Custody
import Export
import Foundation
import Ground
import Ingest
import Query
import TestLiterals
import Verify

/// A real archive in a scratch directory: CAS + custody log + archive key, filled with signed
/// captures made here (ffmpeg-encoded JPEG, a capture record with a pose trace, evidence files,
/// a C2PA manifest signed by a test signer) and recorded the way ingest records them.
final class ExportFixture {
    let root: String
    let archive: String
    let dump: String
    let store: ContentStore
    /// The custody log ingests append to (v2; a test may swap in a v1 writer on the same environment).
    var log: CustodyLog
    let key: ArchiveKey
    let rootCert: Certificate
    let signerCert: Certificate
    let signerKey: PrivateKey
    var records: [IndexedRecord] = []

    init() throws {
        root = NSTemporaryDirectory() + "export-test-" + UUID().uuidString
        archive = root + "/archive"
        dump = root + "/dump"
        try FileManager.default.createDirectory(atPath: dump + "/captures", withIntermediateDirectories: true)
        store = try ContentStore.create(at: archive)
        log = try CustodyLog(environment: store.environment)
        key = try ArchiveKey.loadOrCreate(archive: archive).key
        let now = Date()
        let caKey = try PrivateKey.generate(.p256)
        rootCert = try CertificateBuilder(commonName: "Test Capture Root", organization: "Test", serial: 1,
                                          notBefore: now.addingTimeInterval(-86400), notAfter: now.addingTimeInterval(86400 * 365),
                                          extensions: CertificateBuilder.rootCAExtensions).selfSigned(key: caKey)
        signerKey = try PrivateKey.generate(.p256)
        signerCert = try CertificateBuilder(commonName: "Test Capture Device", organization: "Test", serial: 2,
                                            notBefore: now.addingTimeInterval(-3600), notAfter: now.addingTimeInterval(86400 * 30),
                                            extensions: CertificateBuilder.c2paSignerExtensions)
            .issued(publicKey: signerKey.publicKey, issuer: rootCert, issuerKey: caKey)
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    var verifier: CaptureVerifier {
        CaptureVerifier(signerAnchors: (try? TrustAnchors([rootCert])) ?? .none, tsaAnchors: .none)
    }

    /// The Exporter wired as the CLI wires it (fresh verification with the test anchors).
    func exporter() -> Exporter {
        let exporter = Exporter(store: LMDBBlobStore(store), key: key)
        let verifier = self.verifier
        exporter.reverifier = { folder, media in
            verifier.verify(CaptureLocation(deliveryFile: media, captureFolder: folder, dumpRoot: folder))
        }
        exporter.custody = StoredCustodySource(log)
        exporter.thumbnailer = Exporter.mediaThumbnailer
        return exporter
    }

    func options(_ out: String, caseName: String? = "State v. Example") -> Exporter.Options {
        var o = Exporter.Options(destination: out, caseName: caseName, operatorName: "Test Operator", toolVersion: "0.5.0-test")
        o.host = "test-host"
        return o
    }

    /// A gyro trace with visible motion: 64 samples, three phase-shifted sines.
    static func poseTrace() -> PoseTrace {
        let samples = (0..<64).map { i -> [Int] in
            let t = Double(i) / 8
            return [Int(800 * sin(t)), Int(500 * sin(t + 2)), Int(300 * cos(t * 1.5)), 32000, 10, -20, 5]
        }
        return PoseTrace(rateHz: 50, startOffsetMs: -640, gyroScale: 0.001, attitudeScale: 1.0 / 32767, samples: samples)
    }

    /// Makes `dump/captures/<name>/` (a signed still with an audio master and a sensor log),
    /// verifies it, stores every file in the CAS, indexes it and logs its ingestion.
    @discardableResult
    func addCapture(_ name: String, seed: UInt8 = 1, agent: CustodyAgent = ExportFixture.ingestAgent) throws -> IndexedRecord {
        let folder = dump + "/captures/" + name
        try FileManager.default.createDirectory(atPath: folder + "/evidence", withIntermediateDirectories: true)
        let audio = (0..<4000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ Int(seed)) }
        let sensors = Array("{\"anchor\":\"frame-clock\",\"epochMs\":0}\n{\"t\":10,\"gx\":0.01,\"seed\":\(seed)}\n".utf8)
        try Data(audio).write(to: URL(fileURLWithPath: folder + "/evidence/audio.caf"))
        try Data(sensors).write(to: URL(fileURLWithPath: folder + "/evidence/sensors.jsonl"))
        let device = "/var/mobile/Containers/Data/Application/X/Documents/captures/\(name)"
        let record = CaptureRecord(
            appVersion: AppVersion("0.25.3")!, mediaKind: .still, captureTime: CaptureTime("2026-11-30T14:03:27.123Z")!,
            timeZone: CaptureTimeZone(offsetMinutes: 60, identifier: "Europe/Berlin"), captureToSignatureMs: 2310,
            sensorIntervalCv: 0.0312, poseTrace: Self.poseTrace(), streamedChunks: nil,
            evidence: CaptureEvidence(
                rawPcm: .collected(path: device + "/evidence/audio.caf", sha256: ContentID.sha256(of: audio)),
                sensorLog: .collected(path: device + "/evidence/sensors.jsonl", sha256: ContentID.sha256(of: sensors)),
                ringBufferDir: .neverRecorded),
            depth: nil, mainsHz: MainsHz(hz: 50, exposureDurationS: 0.01), lens: nil, secondView: nil)
        let jpeg = try Self.jpeg(seed: seed)
        let signerKey = self.signerKey
        let builder = ManifestBuilder(
            manifestLabel: "urn:uuid:" + UUID().uuidString.lowercased(), instanceID: "xmp:iid:" + UUID().uuidString.lowercased(),
            generatorName: "ExportTests", assertions: [(CaptureRecord.assertionLabel, record.cbor)],
            signer: .init(algorithm: .es256, certificateChain: [signerCert.der]) { try signerKey.sign($0, algorithm: .es256) })
        let media = folder + "/IMG_\(name).jpg"
        try Data(try builder.signJPEG(jpeg)).write(to: URL(fileURLWithPath: media))
        return try ingest(CaptureLocation(deliveryFile: media, captureFolder: folder, dumpRoot: dump), agent: agent)
    }

    static let ingestAgent = CustodyAgent(operator: "ingest-operator", tool: .init(name: "exhibit-archive", version: "0.5.0"),
                                          host: "test-host")

    /// What ingest does for one capture, through the real components: verify, CAS put of every
    /// file read, the IndexedRecord, an `ingestion` custody event.
    func ingest(_ location: CaptureLocation, agent: CustodyAgent = ExportFixture.ingestAgent) throws -> IndexedRecord {
        let report = verifier.verify(location)
        guard let recordId = report.recordId, let mediaSha = report.sha256 else { throw FixtureError("capture not readable") }
        for f in report.files { _ = try store.put(contentsOf: f.path) }
        let now = CustodyEvent.timestamp(Date())
        let record = IndexedRecord(
            recordId: recordId, kind: report.kind, integrity: report.integrity,
            trust: report.signer?.trust, keyFingerprint: report.signer?.keyFingerprint,
            captureTime: report.captureTime, tsaTime: nil, ingestTime: now,
            failureCodes: report.statusCodes.failure.map(\.code),
            sidecars: Dictionary(report.sidecars.map { ($0.sink, $0.state) }, uniquingKeysWith: { a, _ in a }),
            variants: [.init(blobId: mediaSha, size: report.size ?? 0,
                             sourcePaths: ["dump/" + String(location.deliveryFile.dropFirst(dump.count + 1))], firstIngested: now)],
            files: report.files.filter { $0.role != "media" }.map {
                IndexedRecord.StoredFile(role: $0.role, relativePath: $0.relativePath, blobId: $0.sha256, size: $0.size)
            },
            reportJSON: try CustodyDocument.encoder().encode(report))
        try store.environment.write { txn in
            _ = try log.append(CustodyDraft(.ingestion, agent: agent,
                                            objects: [.record(recordId)] + report.files.map { .blob($0.sha256) },
                                            detail: report.integrity.rawValue), in: txn)
        }
        records.append(record)
        return record
    }

    /// A 320×240 JPEG encoded by ffmpeg (test pattern; `seed` shifts the hue).
    static func jpeg(seed: UInt8) throws -> [UInt8] {
        let out = NSTemporaryDirectory() + "export-fixture-\(UUID().uuidString).jpg"
        defer { try? FileManager.default.removeItem(atPath: out) }
        try run("/usr/bin/ffmpeg", ["-y", "-loglevel", "error", "-nostdin", "-f", "lavfi",
                                   "-i", "testsrc=size=320x240:rate=1", "-vf", "hue=h=\(Int(seed) * 40)",
                                   "-frames:v", "1", "-q:v", "4", out])
        return Array(try Data(contentsOf: URL(fileURLWithPath: out)))
    }

    @discardableResult
    static func run(_ tool: String, _ args: [String], environment: [String: String]? = nil) throws -> (Int32, String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tool)
        p.arguments = args
        if let environment { p.environment = environment }
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = pipe
        try p.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        return (p.terminationStatus, text)
    }
}

struct FixtureError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

/// The Python with bagit-python: `.venv/bin/python` at the package root, else /tmp/venvtest.
func bagitPython() -> String? {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    return [root.appendingPathComponent(".venv/bin/python").path, "/tmp/venvtest/bin/python"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }
}

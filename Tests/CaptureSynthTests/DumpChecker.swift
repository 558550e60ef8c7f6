import C2PA
import CaptureFormat
import Crypto
import Foundation
import Ground
import Synthesis
import TestLiterals
import Verify

/// Reads a synthesized dump with the project's own readers (C2PAValidator, the record codec,
/// EvidenceLayout, DisclosureBundle) and lists every disagreement with `expected.json`.
struct DumpChecker {
    let root: String
    let expected: ExpectedDump
    let validator: C2PAValidator

    init(root: String) throws {
        self.root = root
        expected = try JSONDecoder().decode(ExpectedDump.self, from: Data(contentsOf: URL(fileURLWithPath: root + "/expected.json")))
        validator = C2PAValidator(signerAnchors: try TrustAnchors(pemFile: root + "/" + expected.signerRoot),
                                  tsaAnchors: try TrustAnchors(pemFile: root + "/" + expected.tsaRoot))
    }

    func rel(_ p: String?) -> String? {
        guard let p else { return nil }
        return p.hasPrefix(root + "/") ? String(p.dropFirst(root.count + 1)) : p
    }

    /// The record and context-tree assertion of a signed file, when they parse.
    static func assertions(of file: [UInt8], video: Bool) -> (CaptureRecord?, ContextTreeAssertion?) {
        let src = MemoryByteSource(file)
        guard let lookup = try? (video ? BMFFContainer.manifest(in: src) : JPEGContainer.manifest(in: src)),
              case .found(let loc) = lookup, let store = try? ManifestStore(parsing: loc.storeBytes),
              let m = store.activeManifest else { return (nil, nil) }
        func content(_ label: String) -> [UInt8]? {
            m.assertion(labelled: label)?.contentBoxes(ofType: "cbor").first.map { Array($0.payload) }
        }
        let record = content(CaptureRecord.assertionLabel).flatMap { try? CaptureRecord(decoding: $0) }
        let tree = content(ContextTreeAssertion.label).flatMap { try? ContextTreeAssertion(decoding: $0) }
        return (record, tree)
    }

    /// Every disagreement for one capture, as readable lines (empty = all as expected).
    func check(_ c: ExpectedDump.Capture) -> [String] {
        var out: [String] = []
        func expect<T: Equatable>(_ what: String, _ actual: T, _ wanted: T) {
            if actual != wanted { out.append("\(c.id) [\(c.faults.joined(separator: ","))] \(what): got \(actual), expected \(wanted)") }
        }
        let path = root + "/" + c.deliveryFile
        guard let bytes = try? [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) else { return ["\(c.id): cannot read \(path)"] }
        let r = validator.validate(source: MemoryByteSource(bytes))
        expect("integrity", r.integrity.rawValue, c.integrity)
        if let t = c.trust { expect("trust", r.trust.rawValue, t) }
        expect("failureCodes", r.failureCodes.sorted(), c.failureCodes)
        expect("timestamp", r.timestamp.state, c.timestamp)
        if c.claimSHA256 != nil { expect("claimSHA256", r.claimSHA256?.hex, c.claimSHA256) }
        if let fp = c.keyFingerprint { expect("keyFingerprint", r.signer?.keyFingerprint.hex, fp) }

        let (record, tree) = DumpChecker.assertions(of: bytes, video: c.kind == "video")
        expect("appVersion", record?.appVersion.description, c.appVersion)
        expect("captureTime", record?.captureTime.text, c.captureTime)
        expect("timeRung", record?.captureTime.rung.name, c.timeRung)
        if let record {
            let layout = EvidenceLayout(captureFolder: root + "/" + c.folder, dumpRoot: root)
            let ev = layout.evaluate(record)
            let got = ev.sidecars.map { r in
                ExpectedDump.Sidecar(sink: r.sink.rawValue, state: r.state.rawValue, committedSha256: r.committedSha256?.hex,
                                     file: rel(r.file), recordedPath: record.sinks.first { $0.sink == r.sink }?.record.path,
                                     pathFindings: r.pathFindings.map(\.rawValue), note: r.note)
            }
            expect("sidecars", got, c.sidecars)
            expect("unreferenced", ev.unreferenced, c.unreferenced)
            if let s = c.streamedChunks {
                expect("streamedChunks.root", record.streamedChunks?.root.hex, s.root)
                expect("streamedChunks.videoChunks", record.streamedChunks?.videoChunks, s.videoChunks)
                expect("streamedChunks.audioChunks", record.streamedChunks?.audioChunks, s.audioChunks)
            } else {
                expect("streamedChunks", record.streamedChunks == nil, true)
            }
        } else {
            expect("sidecars", [], c.sidecars)
        }

        // Bundles: every *.bundle.json in disclosure/, verified against the signed assertion.
        let dir = root + "/" + c.folder + "/disclosure"
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasSuffix(".bundle.json") }.sorted()
        expect("bundle files", names.map { c.folder + "/disclosure/" + $0 }, c.bundles.map(\.file).sorted())
        for b in c.bundles {
            guard let data = try? Data(contentsOf: URL(fileURLWithPath: root + "/" + b.file)) else { out.append("\(b.file) unreadable"); continue }
            let v: BundleVerification
            if let bundle = try? DisclosureBundle(json: data), let tree { v = bundle.verify(against: tree) } else {
                v = .malformed("unreadable")
            }
            expect("\(b.file) result", v.result, b.result)
            expect("\(b.file) labels", Set(v.labels.map(\.rawValue)).sorted(), b.failureLabels)
            expect("\(b.file) profile", v.profile, b.profile)
            expect("\(b.file) opened", v.leaves.count, b.openedLeaves)
            expect("\(b.file) withheld", v.withheldCount, b.withheldCount)
        }

        // Files on disk.
        expect("files", DumpChecker.files(root: root, under: c.folder), c.files)
        return out
    }

    static func files(root: String, under rel: String) -> [String] {
        var out: [String] = []
        func walk(_ r: String) {
            for n in (try? FileManager.default.contentsOfDirectory(atPath: root + "/" + r)) ?? [] {
                let p = r + "/" + n
                var st = stat()
                guard lstat(root + "/" + p, &st) == 0 else { continue }
                if (st.st_mode & S_IFMT) == S_IFDIR { walk(p) } else { out.append(p) }
            }
        }
        walk(rel)
        return out.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }
}

import Crypto
import Foundation
import Ground

/// `verify-export`: checks a bag made by `Exporter` without the archive.
///
/// Completeness (every manifest entry present, nothing unlisted), every payload and tag file's
/// SHA-256 (streamed, constant memory), `Payload-Oxum`, the COSE_Sign1 signature over
/// `custody.json` with the certificate shipped in the bag, custody.json's file list against the
/// manifest, and the custody chain proof (`exhibit-custody-chain/1` or `/2`; redacted events
/// are checked from their seq, prevHash and bodyHash). Every problem is a named `BagFinding`; the check
/// goes on after one.
///
/// A valid signature proves custody.json was signed by the key in `archive-cert.pem`. Whether
/// that key is the archive's is for the reader to confirm out of band (`keyFingerprint`).
public struct BagVerifier {
    public struct Result: Sendable, Equatable {
        public var bag: String
        public var payloadFiles: Int
        public var payloadBytes: UInt64
        public var tagFiles: Int
        /// SHA-256 of the SubjectPublicKeyInfo of the key that signed custody.json, when valid.
        public var keyFingerprint: String?
        public var records: Int
        public var custodyEvents: Int
        public var findings: [BagFinding]
        /// Of `custodyEvents`, those shipped redacted (events about other records).
        public var redactedCustodyEvents = 0
        /// The algorithms of the bag's manifests (`sha256`, `sha512`, …).
        public var manifestAlgorithms: [String] = []
        public var isValid: Bool { findings.isEmpty }
    }

    /// Tag files every bag of ours has (plus at least one payload and one tag manifest).
    static let requiredTags = ["bagit.txt", "bag-info.txt", "custody.json", "custody.cose", ArchiveKey.certificateFile]

    public let bag: String
    /// Called after each file is hashed: files and bytes so far, and the totals expected.
    public var progress: ((_ files: Int, _ bytes: UInt64, _ totalFiles: Int, _ totalBytes: UInt64) -> Void)?
    public init(bag: String) { self.bag = URL(fileURLWithPath: bag).standardizedFileURL.path }

    /// Checks the bag. Every `manifest-<alg>.txt` and `tagmanifest-<alg>.txt` of a BagIt
    /// algorithm (`BagDigest`) is checked: each payload manifest must list every payload file
    /// with its digest, each tag manifest every tag file but the tag manifests; each file is
    /// read once for all algorithms.
    public func verify() -> Result {
        var r = Result(bag: bag, payloadFiles: 0, payloadBytes: 0, tagFiles: 0, keyFingerprint: nil, records: 0,
                       custodyEvents: 0, findings: [])
        let declaration = read("bagit.txt").map { String(decoding: $0, as: UTF8.self) }
        guard let declaration else {
            r.findings.append(BagFinding(StatusCode.bagNotABag, path: "bagit.txt", "\(bag) has no bagit.txt"))
            return r
        }
        if !declaration.contains("BagIt-Version: 1.0") || !declaration.contains("Tag-File-Character-Encoding: UTF-8") {
            r.findings.append(BagFinding(StatusCode.bagNotABag, path: "bagit.txt", "bagit.txt does not declare BagIt 1.0 in UTF-8"))
        }
        for tag in Self.requiredTags where !exists(tag) {
            r.findings.append(BagFinding(StatusCode.bagTagFileMissing, path: tag, "required tag file \(tag) is missing"))
        }
        let onDisk = walk()
        var payloadManifests: [BagDigest: [String: String]] = [:], tagManifests: [BagDigest: [String: String]] = [:]
        for name in onDisk where !name.contains("/") {
            guard let (digest, tag) = BagDigest.manifest(named: name) else { continue }
            let entries = manifest(name, digest, &r.findings)
            if tag { tagManifests[digest] = entries } else { payloadManifests[digest] = entries }
        }
        if payloadManifests.isEmpty {
            r.findings.append(BagFinding(StatusCode.bagTagFileMissing, path: "manifest-sha256.txt", "the bag has no payload manifest (manifest-<algorithm>.txt)"))
        }
        if tagManifests.isEmpty {
            r.findings.append(BagFinding(StatusCode.bagTagFileMissing, path: "tagmanifest-sha256.txt", "the bag has no tag manifest (tagmanifest-<algorithm>.txt)"))
        }
        let isTagManifest = { (p: String) in BagDigest.manifest(named: p)?.tag == true && !p.contains("/") }
        // Every algorithm a manifest uses, and SHA-256 always (custody.json lists it).
        let algorithms = Array(Set(payloadManifests.keys).union(tagManifests.keys).union([.sha256])).sorted()
        let payloadPaths = Set(payloadManifests.values.flatMap(\.keys)).union(onDisk.filter { $0.hasPrefix("data/") }).sorted()
        let tagPaths = Set(tagManifests.values.flatMap(\.keys)).union(onDisk.filter { !$0.hasPrefix("data/") && !isTagManifest($0) }).sorted()
        let expectedBytes = oxum()?.bytes ?? 0
        var done = 0, doneBytes: UInt64 = 0

        // Payload: each file in every payload manifest, with each algorithm's digest.
        var actualSHA256: [String: String] = [:]
        for path in payloadPaths {
            let listed = payloadManifests.filter { $0.value[path] != nil }
            if !path.hasPrefix("data/") {
                for (d, _) in listed.sorted(by: { $0.key < $1.key }) {
                    r.findings.append(BagFinding(StatusCode.bagManifestMalformed, path: path, "\(d.payloadManifest) lists \(path) outside data/"))
                }
                continue
            }
            guard let (sums, size) = hashFile(path, algorithms) else {
                r.findings.append(BagFinding(StatusCode.bagPayloadMissing, path: path, "payload file \(path) is missing (removed)"))
                continue
            }
            actualSHA256[path] = sums[.sha256]
            r.payloadFiles += 1
            r.payloadBytes += size
            done += 1
            doneBytes += size
            progress?(done, doneBytes, payloadPaths.count + tagPaths.count, expectedBytes)
            r.findings += Self.compare(path, sums, payloadManifests, tag: false)
        }
        // Tag files: each in every tag manifest, but the tag manifests themselves.
        for path in tagPaths {
            guard let (sums, _) = hashFile(path, algorithms) else {
                if !Self.requiredTags.contains(path) {
                    r.findings.append(BagFinding(StatusCode.bagTagFileMissing, path: path, "tag file \(path) is listed but missing (removed)"))
                }
                continue
            }
            r.tagFiles += 1
            done += 1
            progress?(done, doneBytes, payloadPaths.count + tagPaths.count, expectedBytes)
            r.findings += Self.compare(path, sums, tagManifests, tag: true)
        }
        r.tagFiles += onDisk.filter(isTagManifest).count
        r.manifestAlgorithms = Array(Set(payloadManifests.keys).union(tagManifests.keys)).sorted().map(\.rawValue)
        checkOxum(&r)
        // custody.json's file list against the SHA-256 manifest (as before), or against the
        // files as read when the bag has no SHA-256 manifest.
        checkCustody(payloadManifests[.sha256] ?? actualSHA256, &r)
        return r
    }

    /// A file's digests against each manifest of its kind: `…Unlisted` when one does not list
    /// it, `…Changed` when one lists another digest.
    static func compare(_ path: String, _ sums: [BagDigest: String], _ manifests: [BagDigest: [String: String]],
                        tag: Bool) -> [BagFinding] {
        var out: [BagFinding] = []
        let kind = tag ? "tag file" : "payload file"
        for (d, entries) in manifests.sorted(by: { $0.key < $1.key }) {
            let manifest = tag ? d.tagManifest : d.payloadManifest
            guard let expected = entries[path] else {
                out.append(BagFinding(tag ? StatusCode.bagTagFileUnlisted : StatusCode.bagPayloadUnlisted, path: path, "\(kind) \(path) is not in \(manifest) (added)"))
                continue
            }
            if sums[d] != expected {
                out.append(BagFinding(tag ? StatusCode.bagTagFileChanged : StatusCode.bagPayloadChanged, path: path,
                                      "\(kind) \(path) hashes to \(sums[d] ?? "?") (\(d.rawValue)), \(manifest) says \(expected) (changed)"))
            }
        }
        return out
    }

    /// `Payload-Oxum` of bag-info.txt, when it is two numbers.
    func oxum() -> (bytes: UInt64, files: Int)? {
        guard let info = read("bag-info.txt").map({ String(decoding: $0, as: UTF8.self) }),
              let line = info.split(separator: "\n").first(where: { $0.hasPrefix("Payload-Oxum:") }) else { return nil }
        let parts = line.dropFirst("Payload-Oxum:".count).trimmingCharacters(in: .whitespaces).split(separator: ".")
        guard parts.count == 2, let b = UInt64(parts[0]), let f = Int(parts[1]) else { return nil }
        return (b, f)
    }

    func checkOxum(_ r: inout Result) {
        guard let info = read("bag-info.txt").map({ String(decoding: $0, as: UTF8.self) }) else { return }
        guard let line = info.split(separator: "\n").first(where: { $0.hasPrefix("Payload-Oxum:") }) else {
            r.findings.append(BagFinding(StatusCode.bagOxumMismatch, path: "bag-info.txt", "bag-info.txt has no Payload-Oxum"))
            return
        }
        let value = line.dropFirst("Payload-Oxum:".count).trimmingCharacters(in: .whitespaces)
        let parts = value.split(separator: ".")
        var bytes: UInt64 = 0, files = 0
        for path in walk() where path.hasPrefix("data/") {
            files += 1
            bytes += fileSize(path) ?? 0
        }
        if parts.count != 2 || UInt64(parts[0]) != bytes || Int(parts[1]) != files {
            r.findings.append(BagFinding(StatusCode.bagOxumMismatch, path: "bag-info.txt",
                                         "Payload-Oxum says \(value), the payload holds \(bytes).\(files)"))
        }
    }

    /// `payload`: payload path → SHA-256 (the sha256 manifest's, else as read).
    func checkCustody(_ payload: [String: String], _ r: inout Result) {
        guard let custody = read("custody.json") else { return }
        if let cose = read("custody.cose") {
            let cert = read(ArchiveKey.certificateFile).flatMap { try? Certificate.parsePEM(String(decoding: $0, as: UTF8.self)).first }
            switch CustodySignature.verify(cose, over: custody, expectedCertificate: cert) {
            case .valid(let fp): r.keyFingerprint = fp
            case .invalid(let code, let detail): r.findings.append(BagFinding(code, path: "custody.cose", detail))
            }
        }
        let doc: CustodyDocument
        do { doc = try CustodyDocument.decoder().decode(CustodyDocument.self, from: Data(custody)) } catch {
            r.findings.append(BagFinding(StatusCode.custodyMalformed, path: "custody.json", "custody.json does not decode: \(error)"))
            return
        }
        r.records = doc.records.count
        let info = read("bag-info.txt").map { String(decoding: $0, as: UTF8.self) } ?? ""
        let bagId = info.split(separator: "\n").first { $0.hasPrefix("External-Identifier:") }
            .map { $0.dropFirst("External-Identifier:".count).trimmingCharacters(in: .whitespaces) }
        if bagId != doc.export.externalIdentifier {
            r.findings.append(BagFinding(StatusCode.custodyBagMismatch, path: "custody.json",
                                         "custody.json is for bag \(doc.export.externalIdentifier), bag-info.txt names \(bagId ?? "none")"))
        }
        var listed: [String: String] = [:]
        for record in doc.records {
            for f in record.files { listed[f.path] = f.sha256.hex }
        }
        for (path, sha) in listed.sorted(by: { $0.key < $1.key }) where payload[path] != sha {
            r.findings.append(BagFinding(StatusCode.custodyFileMismatch, path: path,
                                         "custody.json lists \(path) with SHA-256 \(sha), the manifest \(payload[path] ?? "does not list it")"))
        }
        for path in payload.keys.sorted() where listed[path] == nil {
            r.findings.append(BagFinding(StatusCode.custodyFileMismatch, path: path, "custody.json does not list payload file \(path)"))
        }
        guard let chain = doc.custodyChain else { return }
        r.custodyEvents = chain.events.count
        r.redactedCustodyEvents = chain.events.filter(\.isRedacted).count
        for p in chain.check() {
            r.findings.append(BagFinding(p.code, path: "custody.json", sequence: p.sequence, p.detail))
        }
        let inChain = Dictionary(chain.events.map { ($0.seq, $0) }, uniquingKeysWith: { a, _ in a })
        for record in doc.records {
            for seq in record.custodyEvents {
                guard let entry = inChain[seq] else {
                    r.findings.append(BagFinding(StatusCode.custodyChainBroken, path: "custody.json", sequence: seq,
                                                 "record \(record.recordId) names custody event \(seq), which the chain does not hold"))
                    continue
                }
                if entry.isRedacted {
                    r.findings.append(BagFinding(StatusCode.custodyEventRedacted, path: "custody.json", sequence: seq,
                                                 "record \(record.recordId) names custody event \(seq), which the chain ships redacted"))
                }
            }
        }
        if let rep = doc.export.replicationEvent {
            if rep != chain.headSequence {
                r.findings.append(BagFinding(StatusCode.custodyHeadMismatch, path: "custody.json", sequence: rep,
                                             "the replication event \(rep) is not the chain head \(chain.headSequence)"))
            } else if inChain[rep]?.isRedacted == true {
                r.findings.append(BagFinding(StatusCode.custodyEventRedacted, path: "custody.json", sequence: rep,
                                             "the replication event \(rep) is shipped redacted"))
            }
        }
    }

    // MARK: Files

    /// Parses `<hex>  <path>` lines (RFC 8493 §2.1.3: one or more whitespace characters).
    func manifest(_ name: String, _ algorithm: BagDigest, _ findings: inout [BagFinding]) -> [String: String] {
        guard let bytes = read(name) else { return [:] }
        var out: [String: String] = [:]
        for (n, line) in String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true).enumerated() {
            let text = line.hasSuffix("\r") ? line.dropLast() : line
            guard let space = text.firstIndex(where: { $0 == " " || $0 == "\t" }) else {
                findings.append(BagFinding(StatusCode.bagManifestMalformed, path: name, "\(name) line \(n + 1) has no path"))
                continue
            }
            let digest = text[..<space].lowercased()
            let path = BagPath.decode(String(text[space...].drop { $0 == " " || $0 == "\t" }))
            guard digest.count == algorithm.hexLength, Hex.decode(digest) != nil, BagPath.components(of: path) != nil else {
                findings.append(BagFinding(StatusCode.bagManifestMalformed, path: name, "\(name) line \(n + 1) is not `<\(algorithm.rawValue)>  <path>`"))
                continue
            }
            out[path] = digest
        }
        return out
    }

    /// Every regular file in the bag, bag-relative, sorted (symlinks and other entries are
    /// reported as files too so that nothing unlisted hides).
    func walk() -> [String] {
        guard let e = FileManager.default.enumerator(atPath: bag) else { return [] }
        var out: [String] = []
        while let p = e.nextObject() as? String {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: bag + "/" + p, isDirectory: &isDir), isDir.boolValue { continue }
            out.append(p)
        }
        return out.sorted()
    }

    func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: bag + "/" + path) }

    func read(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: bag + "/" + path).map { Array($0) }
    }

    func fileSize(_ path: String) -> UInt64? { BagWriter.fileSize(bag + "/" + path) }

    /// The digests and size of a regular file of the bag, read once; nil when absent.
    func hashFile(_ path: String, _ algorithms: [BagDigest]) -> ([BagDigest: String], UInt64)? {
        BagDigest.digests(ofFile: bag + "/" + path, algorithms).map { ($0.digests, $0.size) }
    }
}

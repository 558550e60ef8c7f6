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
        public var isValid: Bool { findings.isEmpty }
    }

    static let requiredTags = ["bagit.txt", "bag-info.txt", "manifest-sha256.txt", "tagmanifest-sha256.txt",
                               "custody.json", "custody.cose", ArchiveKey.certificateFile]

    public let bag: String
    public init(bag: String) { self.bag = URL(fileURLWithPath: bag).standardizedFileURL.path }

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
        let payload = manifest("manifest-sha256.txt", &r.findings)
        let tags = manifest("tagmanifest-sha256.txt", &r.findings)

        // Payload: each listed file present with its hash; nothing unlisted under data/.
        for (path, expected) in payload.sorted(by: { $0.key < $1.key }) {
            guard path.hasPrefix("data/") else {
                r.findings.append(BagFinding(StatusCode.bagManifestMalformed, path: path, "payload manifest lists \(path) outside data/"))
                continue
            }
            guard let (digest, size) = hashFile(path) else {
                r.findings.append(BagFinding(StatusCode.bagPayloadMissing, path: path, "payload file \(path) is missing (removed)"))
                continue
            }
            r.payloadFiles += 1
            r.payloadBytes += size
            if digest != expected {
                r.findings.append(BagFinding(StatusCode.bagPayloadChanged, path: path,
                                             "payload file \(path) hashes to \(digest), the manifest says \(expected) (changed)"))
            }
        }
        for path in onDisk where path.hasPrefix("data/") && payload[path] == nil {
            r.findings.append(BagFinding(StatusCode.bagPayloadUnlisted, path: path, "payload file \(path) is in no manifest (added)"))
        }
        // Tag files.
        for (path, expected) in tags.sorted(by: { $0.key < $1.key }) {
            guard let (digest, _) = hashFile(path) else {
                if !Self.requiredTags.contains(path) {
                    r.findings.append(BagFinding(StatusCode.bagTagFileMissing, path: path, "tag file \(path) is listed but missing (removed)"))
                }
                continue
            }
            r.tagFiles += 1
            if digest != expected {
                r.findings.append(BagFinding(StatusCode.bagTagFileChanged, path: path,
                                             "tag file \(path) hashes to \(digest), the tag manifest says \(expected) (changed)"))
            }
        }
        for path in onDisk where !path.hasPrefix("data/") && path != "tagmanifest-sha256.txt" && tags[path] == nil {
            r.findings.append(BagFinding(StatusCode.bagTagFileUnlisted, path: path, "file \(path) is in no tag manifest (added)"))
        }
        checkOxum(&r)
        checkCustody(payload, &r)
        return r
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
    func manifest(_ name: String, _ findings: inout [BagFinding]) -> [String: String] {
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
            guard digest.count == 64, Hex.decode(digest) != nil, BagPath.components(of: path) != nil else {
                findings.append(BagFinding(StatusCode.bagManifestMalformed, path: name, "\(name) line \(n + 1) is not `<sha256>  <path>`"))
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

    /// SHA-256 (hex) and size of a regular file, streamed in 1 MiB reads; nil when absent.
    func hashFile(_ path: String) -> (String, UInt64)? {
        guard let file = try? FileByteSource(opening: bag + "/" + path, limit: FileLimits.defaultMaxFileBytes) else { return nil }
        let hash = MessageDigest(.sha256)
        do { try file.forEachChunkInPlace(in: 0..<file.count) { hash.update($0) } } catch { return nil }
        return (Hex.encode(hash.finalize()), UInt64(file.count))
    }
}

import C2PA
import CaptureFormat
import Crypto
import Foundation
import Ground

/// The capture-record stage: one `CaptureReport` per capture, joining the C2PA verdict on the
/// delivery file, the app's signed record (context facts, capture time, sink commitments), the
/// evidence folder (sidecar states, unreferenced files), the disclosure bundles checked
/// against the signed `camera.contextTree` root, the streamed-chunk commitment, and the
/// seed's statements of what these checks cannot bound. Stores nothing. Never throws for a bad
/// capture: an unreadable item is a report with `error` set. Thread-safe (chain validations are
/// cached across captures).
public struct CaptureVerifier: Sendable {
    public let validator: C2PAValidator
    /// Whether `verify` adds the media evidence of issue 7 (facts, streamed-chunk
    /// recomputation, parallax; `CaptureVerifier+Media.swift`). Reads the media a second time.
    public var measuresMedia = true

    public init(signerAnchors: TrustAnchors, tsaAnchors: TrustAnchors) {
        validator = C2PAValidator(signerAnchors: signerAnchors, tsaAnchors: tsaAnchors)
    }

    /// Verifies one capture. `knownDigests`: absolute local path → SHA-256 hex the caller has
    /// already computed (e.g. by a CAS put); such files are not read again. `knownContents`:
    /// absolute local path → the bytes the caller read (their SHA-256 given in `knownDigests`),
    /// for files the verifier must parse — disclosure bundles are parsed from them instead of
    /// read again, so what is checked is exactly what the caller stores.
    /// `sources`: path → a source over exactly the bytes the caller read (with their digest
    /// in `knownDigests`): the delivery file is validated from it, not opened again by path.
    /// `listing`: the capture folder's entries; when given, every presence and listing check
    /// (sidecars, ring, unreferenced files, bundles) reads it and nothing asks the file system
    /// (a file it lists must then have a digest and a source, or its reason in `unread`).
    /// `unread`: path → why the caller could not read a file it found (reported as if found
    /// here, not tried again).
    public func verify(_ c: CaptureLocation, knownDigests: [String: ContentID] = [:],
                       knownContents: [String: [UInt8]] = [:], sources: [String: any ByteSource] = [:],
                       listing: CaptureListing? = nil, unread: [String: FileOpenError] = [:]) -> CaptureReport {
        var files = FileLedger(location: c, known: knownDigests, knownContents: knownContents, sources: sources,
                               listing: listing, unread: unread)
        var report = CaptureReport(path: c.deliveryFile, kind: .unknown, integrity: .malformed, timestamp: .init(state: "absent"))
        report.limits = CaptureLimits.general

        // The delivery file: the caller's source when it read it (staged), else opened here,
        // never through a symlink.
        let delivery: any ByteSource
        var opened: FileByteSource?
        if let staged = sources[c.deliveryFile], knownDigests[c.deliveryFile] != nil {
            delivery = staged
        } else {
            // Not in the snapshot: what is there, from its listing when it has one (a snapshot's
            // capture is read from the snapshot only), else `lstat`.
            let probe = EvidenceLayout(captureFolder: c.captureFolder ?? CaptureVerifier.parent(c.deliveryFile), dumpRoot: c.dumpRoot,
                                       listing: c.captureFolder == nil ? nil : listing)
            switch probe.entry(at: c.deliveryFile) {
            case .file: break
            case .symlink(let target, let escapes):
                report.error = .init(code: StatusCode.verifySymlink,
                                     message: "delivery file is a symlink to \(target)\(escapes ? " (leaves the dump)" : ""); not followed")
                return report
            case .absent:
                report.error = .init(code: StatusCode.ioCannotOpen, message: "no such file: \(c.deliveryFile)")
                return report
            case .directory, .other:
                report.error = .init(code: StatusCode.verifyNotRegularFile, message: "not a regular file: \(c.deliveryFile)")
                return report
            }
            if listing != nil {
                // Listed as a regular file but not read by the caller: its reason, never a second try.
                let why = unread[c.deliveryFile]
                report.error = .init(code: why?.code ?? StatusCode.ioCannotOpen, message: why?.description ?? "not read: \(c.deliveryFile)")
                return report
            }
            // A capture folder's delivery file: opened from the dump root's descriptor, one
            // component at a time (the walk's way); a loose file (named by a person, or one of
            // several in a folder): by its path, its last component not followed.
            do {
                opened = try c.captureFolder != nil
                    ? DumpDirectory.file(c.deliveryFile, under: c.dumpRoot)
                    : FileByteSource(opening: c.deliveryFile, limit: FileLimits.current)
            } catch {
                // Not a regular file, over the size limit (`EXHIBIT_MAX_FILE_SIZE`), or unopenable:
                // refused by name before a byte is read.
                report.error = .init(code: error.code, message: error.description)
                return report
            }
            delivery = opened!
        }
        report.size = UInt64(delivery.count)

        // One read for the hard binding and the content digest (unless the caller has it).
        let labels: Set<String> = [CaptureRecord.assertionLabel, ContextTreeAssertion.label]
        let c2pa: C2PAReport
        let assertions: [String: [UInt8]]
        if let known = knownDigests[c.deliveryFile] {
            (c2pa, assertions) = validator.validate(source: delivery, collecting: labels)
            report.sha256 = known
        } else {
            let hashing = HashingByteSource(opened!)  // no known digest: opened here
            (c2pa, assertions) = validator.validate(source: hashing, collecting: labels)
            do { report.sha256 = ContentID(digest: try hashing.finish()) } catch {
                report.error = .init(code: error.code, message: "read failed while hashing \(c.deliveryFile)")
            }
        }
        // The bytes validated were the whole file, unchanged (a `/proc` file's `st_size` is not
        // its content; a file still being written grows): else the capture is not judged. (A
        // caller's source is the caller's to confirm.)
        if let opened {
            do { try opened.confirmUnchanged() } catch {
                report.error = .init(code: error.code, message: error.description)
                return report
            }
        }
        if let sha = report.sha256 {
            files.add(role: .media, path: c.deliveryFile, sha256: sha, size: UInt64(delivery.count))
        }
        apply(c2pa, to: &report)

        // The app's own record and context tree.
        let record = readRecord(assertions[CaptureRecord.assertionLabel], into: &report)
        let tree = readContextTree(assertions[ContextTreeAssertion.label], into: &report)
        if let record { applyRecord(record, to: &report) }
        if report.kind == .unknown {
            report.kind = c2pa.kind ?? .unknown
        }
        if let record {
            checkEvidence(record, location: c, files: &files, into: &report)
        } else if let folder = c.captureFolder {
            // No readable record: no sink names anything, so every evidence file is unreferenced
            // (listed and hashed, so an archive keeps it).
            listUnreferenced(EvidenceLayout(captureFolder: folder, dumpRoot: c.dumpRoot, listing: listing), referenced: [], files: &files, into: &report)
        }
        if let folder = c.captureFolder { checkBundles(folder: folder, listing: listing, tree: tree, files: &files, into: &report) }
        report.files = files.entries
        if measuresMedia { measureMedia(record, location: c, sources: sources, into: &report) }
        return report
    }

    /// The C2PA verdict's fields in the report.
    func apply(_ c2pa: C2PAReport, to report: inout CaptureReport) {
        report.integrity = c2pa.integrity
        report.timestamp = c2pa.timestamp
        report.recordId = c2pa.claimSHA256 ?? report.sha256
        report.statusCodes = .init(success: c2pa.success, informational: c2pa.informational, failure: c2pa.failure)
        report.c2paReason = c2pa.reason
        report.activeManifest = c2pa.activeManifest
        report.container = c2pa.container
        if let s = c2pa.signer {
            report.signer = .init(keyFingerprint: s.keyFingerprint, subject: s.subject, issuer: s.issuer,
                                  algorithm: s.algorithm, trust: c2pa.trust)
        }
    }

    public static func parent(_ path: String) -> String {
        guard let i = path.lastIndex(of: "/") else { return "/" }
        let p = String(path[..<i])
        return p.isEmpty ? "/" : p
    }
}

import C2PA
import Crypto
import Foundation
import Ground

extension C2PAValidator {
    /// Recomputes the claim's hard binding (`c2pa.hash.data` or `c2pa.hash.bmff[.v2|.v3]`) in one
    /// streamed pass. Returns whether it matches. `grownStore`: the file range of a store that
    /// has grown since this (parent's) data hash was made, when an update manifest is active
    /// (C2PAValidator+UpdateManifest.swift).
    func checkHardBinding(claim: Claim, store: ManifestStore, manifest: Manifest, source: some ByteSource,
                          boxes: [BMFFBox]?, grownStore: Range<Int64>? = nil, report r: inout C2PAReport) -> Bool {
        let refs = claim.assertionReferences.filter {
            guard let (_, labels) = JUMBFURI.path(of: $0.url), let last = labels.last else { return false }
            return last == DataHashAssertion.label || last.hasPrefix("c2pa.hash.bmff")
        }
        guard let ref = refs.first, let box = JUMBFURI.resolve(ref.url, in: store, relativeTo: manifest),
              let label = box.label else {
            r.failure.append(.init(code: StatusCode.claimHardBindingsMissing,
                                   url: JUMBFURI.absolute(manifest: manifest.label, path: "c2pa.assertions")))
            return false
        }
        if refs.count > 1 {
            r.failure.append(.init(code: StatusCode.assertionMultipleHardBindings,
                                   url: JUMBFURI.absolute(manifest: manifest.label, path: "c2pa.assertions")))
        }
        let url = JUMBFURI.absolute(manifest: manifest.label, path: "c2pa.assertions/\(label)")
        let isData = label.hasPrefix(DataHashAssertion.label)
        let codes = isData ? HardBindingCodes.dataHash : HardBindingCodes.bmffHash
        let content: CBOR
        do {
            guard let c = try Manifest.cborContent(of: box) else {
                r.failure.append(.init(code: codes.malformed, url: url, explanation: "no CBOR content"))
                return false
            }
            content = c
        } catch {
            r.failure.append(.init(code: codes.malformed, url: url, explanation: error.code))
            return false
        }
        do {
            let expected: [UInt8]
            let actual: [UInt8]
            if isData {
                var a = try DataHashAssertion(cbor: content)
                if let grownStore { a.exclusions = Self.exclusions(a.exclusions, adjustedTo: grownStore) }
                if a.exclusions.count > 1 {
                    r.informational.append(.init(code: StatusCode.assertionDataHashAdditionalExclusionsPresent, url: url,
                                                 explanation: "extra data hash exclusions found"))
                }
                expected = a.hash
                actual = try a.computeHash(over: source, algorithm: .c2pa(a.alg, default: claim.alg))
            } else {
                let verdict = try BMFFHashAssertion(label: label, cbor: content).verify(over: source, boxes: boxes, claimAlg: claim.alg)
                if verdict == .match { r.success.append(.init(code: codes.match, url: url)) } else {
                    r.failure.append(.init(code: codes.code(for: verdict), url: url, explanation: verdict.explanation))
                }
                return verdict == .match
            }
            if actual == expected {
                r.success.append(.init(code: codes.match, url: url))
                return true
            }
            r.failure.append(.init(code: codes.mismatch, url: url, explanation: "asset hash does not match"))
            return false
        } catch {
            r.failure.append(.init(code: codes.mismatch, url: url, explanation: error.code))
            return false
        }
    }
}

/// The status codes of one kind of hard binding (`assertion.dataHash.*`, `assertion.bmffHash.*`).
struct HardBindingCodes {
    let match: String
    let mismatch: String
    let malformed: String

    static let dataHash = HardBindingCodes(match: StatusCode.assertionDataHashMatch, mismatch: StatusCode.assertionDataHashMismatch,
                                           malformed: StatusCode.assertionDataHashMalformed)
    static let bmffHash = HardBindingCodes(match: StatusCode.assertionBmffHashMatch, mismatch: StatusCode.assertionBmffHashMismatch,
                                           malformed: StatusCode.assertionBmffHashMalformed)

    /// The code of a BMFF verdict.
    func code(for verdict: BMFFHashVerdict) -> String {
        switch verdict {
        case .match: match
        case .mismatch: mismatch
        case .malformed: malformed
        }
    }
}

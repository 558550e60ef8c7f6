import C2PA
import Crypto
import Foundation
import Ground

extension C2PAValidator {
    /// Everything after the container: store, claim, signature, hashes, trust, rollups.
    func validateStore(_ location: ManifestLocation, source: some ByteSource, boxes: [BMFFBox]?, into r: inout C2PAReport,
                       labels: Set<String> = [], collected: inout [String: [UInt8]]) {
        let store: ManifestStore
        do { store = try ManifestStore(parsing: location.storeBytes) } catch {
            r.reason = error.code
            r.failure.append(.init(code: StatusCode.claimMalformed, explanation: "manifest store: \(error.code)"))
            return
        }
        guard let manifest = store.activeManifest else {
            r.reason = "no manifest in store"
            r.failure.append(.init(code: StatusCode.claimMissing, explanation: "the store holds no manifest"))
            return
        }
        r.activeManifest = manifest.label
        for label in labels {
            if let box = manifest.assertion(labelled: label), let content = box.contentBoxes(ofType: "cbor").first {
                collected[label] = Array(content.payload)
            }
        }
        // The manifest's parts must carry their C2PA box types, as c2pa-rs's JUMBF reader requires.
        guard manifest.assertionStore != nil, manifest.signatureBox != nil || manifest.claimBox == nil else {
            r.reason = "manifest parts lack their C2PA box types"
            r.failure.append(.init(code: StatusCode.claimMalformed, url: JUMBFURI.absolute(manifest: manifest.label, path: "c2pa.assertions"),
                                   explanation: "no assertion store (c2as) or signature (c2cs) box"))
            return
        }
        let sigURL = JUMBFURI.absolute(manifest: manifest.label, path: "c2pa.signature")
        guard let claimBox = manifest.claimBox, let label = claimBox.label, let claimBytes = manifest.claimBytes else {
            r.reason = "no claim"
            r.failure.append(.init(code: StatusCode.claimMissing, url: JUMBFURI.absolute(manifest: manifest.label, path: "c2pa.claim")))
            return
        }
        let claimURL = JUMBFURI.absolute(manifest: manifest.label, path: label)
        let claim: Claim
        do { claim = try Claim(label: label, bytes: claimBytes) } catch {
            r.reason = error.code
            r.failure.append(.init(code: StatusCode.claimMalformed, url: claimURL, explanation: error.code))
            return
        }
        // Found by its type UUID, read by its CBOR: a label c2pa-rs's manifest walk does not
        // recognise changes nothing there (logged, not reported); ours names it, informational.
        if !Claim.isRecognizedLabel(label) {
            r.informational.append(.init(code: C2PAValidator.claimLabelUnrecognized, url: claimURL,
                                         explanation: "claim box label is not c2pa.claim or c2pa.claim.v2 (read as v\(claim.version) by its c2cl type)"))
        }
        r.claimVersion = claim.version
        r.claimSHA256 = ContentID.sha256(of: Array(claimBytes))

        var tampered = false
        var signerTrusted = false
        // The claim signature.
        let signature = verifySignature(manifest: manifest, claimBytes: Array(claimBytes), url: sigURL, report: &r)
        tampered = tampered || !signature.validated || !signature.padClean
        // BMFF: the merkle-offset field must be 0 (what our writers and c2pa-rs write, also with
        // merkle boxes) or the offset of the first `merkle` uuid box (the specification's
        // meaning); the seed's parser checks it (ours, like the pad): no hash covers it.
        if let merkle = location.merkleOffset, merkle != 0,
           merkle != boxes.flatMap({ BMFFContainer.firstMerkleBoxOffset(in: source, boxes: $0) }).map({ UInt64($0) }) {
            r.failure.append(.init(code: C2PAValidator.merkleOffsetUnexpected,
                                   explanation: "uuid box merkle offset \(merkle) is neither 0 nor the first merkle box's offset"))
            tampered = true
        }
        signerTrusted = signature.trusted
        // PNG: the caBX chunk's CRC-32. No hash covers the carrier (the data hash excludes the
        // whole chunk) and c2pa-rs does not read it (png_io.rs `get_png_chunk_positions` reads
        // the CRC's 4 bytes and drops them), so a mismatch is informational: named, not tampered.
        if location.carrierChecksumMatches == false {
            r.informational.append(.init(code: C2PAValidator.carrierChecksumMismatch,
                                         explanation: "the \(r.container ?? "carrier") chunk's CRC-32 does not match its type and data"))
        }

        // Every hashed URI the claim makes.
        tampered = !checkAssertionReferences(claim: claim, manifest: manifest, store: store, report: &r) || tampered

        // Update-manifest and parentOf rules; the hard binding: the manifest's own, or for an
        // update manifest its parent's (C2PAValidator+UpdateManifest.swift).
        tampered = !checkManifestKind(claim: claim, manifest: manifest, store: store, report: &r) || tampered
        let bound: Bool
        if manifest.kind == .update {
            if let binding = bindingManifest(for: manifest, claim: claim, store: store) {
                bound = checkHardBinding(claim: binding.claim, store: store, manifest: binding.manifest, source: source, boxes: boxes,
                                         grownStore: Self.grownStoreApplies(r.container) ? location.span : nil, report: &r)
            } else {
                r.failure.append(.init(code: StatusCode.claimHardBindingsMissing, url: Self.manifestURI(manifest.label),
                                       explanation: "could not find manifest with hard binding"))
                bound = false
            }
        } else {
            bound = checkHardBinding(claim: claim, store: store, manifest: manifest, source: source, boxes: boxes, report: &r)
        }
        tampered = tampered || !bound

        // Ingredient manifests, recursively (docs/verify.md, Ingredients).
        tampered = !checkIngredients(claim: claim, manifest: manifest, store: store, report: &r) || tampered

        // CAWG identity assertions (C2PAValidator+Identity.swift): only identity-claims-aggregation
        // failures count against integrity, as they make c2pa-rs's state Invalid.
        tampered = !checkIdentityAssertions(claim: claim, manifest: manifest, report: &r) || tampered

        r.integrity = tampered ? .tampered : .intact
        // Signer trust is the credential's verdict (chain to a signer anchor, C2PA profile), as
        // c2pa-rs reports it; a signature that does not verify is an integrity finding.
        r.trust = signerTrusted ? .trusted : .untrusted
    }

    /// Checks every hashed URI `claim` makes (`assertion.hashedURI.*`, `assertion.missing`);
    /// returns whether all resolve and match.
    func checkAssertionReferences(claim: Claim, manifest: Manifest, store: ManifestStore, report r: inout C2PAReport) -> Bool {
        var ok = true
        for ref in claim.assertionReferences {
            let absolute = absoluteURL(ref.url, manifest: manifest.label)
            guard let box = JUMBFURI.resolve(ref.url, in: store, relativeTo: manifest) else {
                r.failure.append(.init(code: StatusCode.assertionMissing, url: absolute, explanation: "not in the store: \(ref.url)"))
                ok = false
                continue
            }
            guard let alg = DigestAlgorithm(c2paName: ref.alg ?? claim.alg ?? "sha256") else {
                r.failure.append(.init(code: StatusCode.algorithmUnsupported, url: absolute, explanation: ref.alg ?? claim.alg))
                ok = false
                continue
            }
            if MessageDigest.digest(Array(box.hashedBytes), alg) == ref.hash {
                r.success.append(.init(code: StatusCode.assertionHashedURIMatch, url: absolute, explanation: "hashed uri matched: \(ref.url)"))
            } else {
                r.failure.append(.init(code: StatusCode.assertionHashedURIMismatch, url: absolute, explanation: "hash does not match: \(ref.url)"))
                ok = false
            }
        }
        return ok
    }

    func absoluteURL(_ url: String, manifest: String) -> String {
        guard let (absolute, labels) = JUMBFURI.path(of: url), !absolute else { return url }
        return JUMBFURI.absolute(manifest: manifest, path: labels.joined(separator: "/"))
    }
}

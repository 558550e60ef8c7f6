import C2PA
import Crypto
import Foundation
import Ground

/// Ingredient validation as c2pa-rs does it (sdk/src/store.rs `ingredient_checks`,
/// sdk/src/validation_results.rs `from_store`): for each ingredient assertion of a claim that
/// references a manifest in the store, the reference's hash is checked over that manifest
/// superbox's payload (`ingredient.manifest.validated` / `.mismatch`, `.missing` when the store
/// has no manifest of that label), then the ingredient's claim is verified (signature, credential,
/// timestamp, every hashed URI it makes — never its hard binding: the ingredient's asset is not
/// here), then its own ingredients, once per manifest, depth-capped and cycle-safe.
///
/// The ingredient's codes are reported as c2pa-rs's `ingredientDeltas` are: a code (and URL)
/// the ingredient assertion already recorded in its `validationResults` / `validationStatus`
/// is not repeated. Any remaining failure makes the file `tampered`, except signer-trust
/// (`signingCredential.*`, the validity window included) and timestamp findings, which never decide integrity (as for the active
/// manifest). c2pa-rs likewise calls such a file `Invalid`.
extension C2PAValidator {
    /// Deepest ingredient nesting followed (c2pa-rs stops at 200 with an error).
    static let maximumIngredientDepth = 16
    /// Most ingredient references checked (manifest hashed, claim verified) for one file: a store
    /// may reference one manifest from many assertions, and each reference checks it again (as
    /// c2pa-rs does).
    static let maximumIngredientChecks = 256

    enum StatusList { case success, informational, failure }

    struct IngredientWalk {
        var statuses: [(list: StatusList, status: C2PAReport.Status)] = []
        /// Manifests whose ingredients were walked already.
        var visited: Set<String>
        /// Manifest labels from the active manifest down to the one being walked.
        var path: [String]
        var checks = 0
        var limitReported = false
        /// The first ingredient claim without a usable signature (the file is then malformed).
        var signatureUnusable: String?

        mutating func add(_ list: StatusList, _ code: String, url: String?, _ explanation: String? = nil) {
            statuses.append((list, .init(code: code, url: url, explanation: explanation)))
        }

        /// The codes of an ingredient claim's verification; explanations name the manifest (the
        /// human output prints no URL).
        mutating func add(_ r: C2PAReport, manifest label: String) {
            func named(_ s: C2PAReport.Status) -> C2PAReport.Status {
                var s = s
                s.explanation = "ingredient \(label): " + (s.explanation ?? s.code)
                return s
            }
            statuses += r.success.map { (.success, named($0)) } + r.informational.map { (.informational, named($0)) }
                + r.failure.map { (.failure, named($0)) }
        }
    }

    /// Validates the ingredients of the active manifest into `r`; returns false when a failure
    /// that decides integrity remains.
    func checkIngredients(claim: Claim, manifest: Manifest, store: ManifestStore, report r: inout C2PAReport) -> Bool {
        var walk = IngredientWalk(visited: [manifest.label], path: [manifest.label])
        walkIngredients(of: claim, in: manifest, store: store, depth: 0, walk: &walk)
        if let why = walk.signatureUnusable { r.signatureUnusable = r.signatureUnusable ?? why }
        if walk.statuses.isEmpty { return true } // no ingredient assertion: nothing to compare
        let recorded = recordedStatuses(in: store)
        var intact = true
        for (list, s) in walk.statuses {
            // Statuses about the active manifest are always kept; others only when they differ
            // from what an ingredient assertion recorded.
            let aboutActive = s.url.flatMap(JUMBFURI.manifestLabel(of:)) == manifest.label
            if !aboutActive, recorded.contains(.init(code: s.code, url: s.url)) { continue }
            switch list {
            case .success: r.success.append(s)
            case .informational: r.informational.append(s)
            case .failure:
                r.failure.append(s)
                if Self.decidesIntegrity(s.code) { intact = false }
            }
        }
        return intact
    }

    /// Whether an ingredient failure code makes the file `tampered`.
    static func decidesIntegrity(_ code: String) -> Bool {
        !(code.hasPrefix("signingCredential.") || code.hasPrefix("timeStamp.")
            || code == StatusCode.generalError)
    }

    private func walkIngredients(of claim: Claim, in manifest: Manifest, store: ManifestStore, depth: Int,
                                 walk: inout IngredientWalk) {
        guard depth < Self.maximumIngredientDepth else {
            walk.add(.failure, StatusCode.generalError, url: JUMBFURI.absolute(manifest: manifest.label, path: "c2pa.assertions"),
                     "ingredient chain deeper than \(Self.maximumIngredientDepth): not followed")
            return
        }
        for ref in claim.assertionReferences {
            guard let (_, labels) = JUMBFURI.path(of: ref.url), let label = labels.last,
                  IngredientAssertion.version(ofLabel: label) != nil,
                  let box = JUMBFURI.resolve(ref.url, in: store, relativeTo: manifest) else {
                continue // not an ingredient, or gone (the hashed-URI check reports assertion.missing)
            }
            let assertionURL = JUMBFURI.absolute(manifest: manifest.label, path: "c2pa.assertions/\(label)")
            let ingredient: IngredientAssertion
            do {
                guard let content = box.contentBoxes(ofType: "cbor").first?.payload else {
                    walk.add(.failure, StatusCode.assertionIngredientMalformed, url: assertionURL, "no CBOR content")
                    continue
                }
                if content.allSatisfy({ $0 == 0 }) { continue } // a zeroed-out assertion (c2pa-rs skips it)
                ingredient = try IngredientAssertion(label: label, cbor: try CBOR(decoding: content))
            } catch let e as CBORError {
                walk.add(.failure, StatusCode.assertionIngredientMalformed, url: assertionURL, e.code)
                continue
            } catch let e as IngredientError {
                walk.add(.failure, StatusCode.assertionIngredientMalformed, url: assertionURL, e.code)
                continue
            } catch {
                walk.add(.failure, StatusCode.assertionIngredientMalformed, url: assertionURL, "\(error)")
                continue
            }
            checkIngredient(ingredient, assertionURL: assertionURL, store: store, depth: depth, walk: &walk)
        }
    }

    private func checkIngredient(_ ingredient: IngredientAssertion, assertionURL: String, store: ManifestStore,
                                 depth: Int, walk: inout IngredientWalk) {
        guard let ref = ingredient.manifestReference else {
            if ingredient.relationship != .inputTo {
                walk.add(.informational, StatusCode.ingredientUnknownProvenance, url: assertionURL,
                         "\(ingredient.title ?? "no title"): ingredient does not have provenance")
            }
            return
        }
        if ingredient.version >= 3, !ingredient.hasValidationResults {
            walk.add(.failure, StatusCode.assertionIngredientMalformed, url: assertionURL, "ingredient v3 must have validation results")
        }
        let label = JUMBFURI.manifestLabel(of: ref.url) ?? ref.url
        guard let target = store.manifest(labelled: label) else {
            walk.add(.failure, StatusCode.ingredientManifestMissing, url: label, "ingredient: \(label) is missing")
            return
        }
        guard !walk.path.contains(label) else {
            walk.add(.failure, StatusCode.assertionIngredientMalformed, url: assertionURL, "ingredient cannot be cyclic")
            return
        }
        // Bounds the hashing and signature checks a store can ask for.
        guard walk.checks < Self.maximumIngredientChecks else {
            if !walk.limitReported {
                walk.add(.failure, StatusCode.generalError, url: ref.url, "more than \(Self.maximumIngredientChecks) ingredient checks: rest not verified")
                walk.limitReported = true
            }
            return
        }
        walk.checks += 1
        guard let claimBox = target.claimBox, let claimLabel = claimBox.label, let claimBytes = target.claimBytes else {
            walk.add(.failure, StatusCode.claimMissing, url: JUMBFURI.absolute(manifest: label, path: "c2pa.claim"))
            return
        }
        let claim: Claim
        do { claim = try Claim(label: claimLabel, bytes: claimBytes) } catch {
            walk.add(.failure, StatusCode.claimMalformed, url: JUMBFURI.absolute(manifest: label, path: claimLabel), error.code)
            return
        }

        // The reference: the manifest superbox's payload (C2PA 1.3+), else (older writers) the claim.
        if let alg = DigestAlgorithm(c2paName: ref.alg ?? claim.alg ?? "sha256") {
            if MessageDigest.digest(Array(target.box.hashedBytes), alg) == ref.hash {
                walk.add(.success, StatusCode.ingredientManifestValidated, url: ref.url,
                         "ingredient hash matched; its hard binding is not checkable (the ingredient's asset is not present)")
            } else if MessageDigest.digest(Array(claimBytes), alg) != ref.hash {
                walk.add(.failure, StatusCode.ingredientManifestMismatch, url: ref.url, "ingredient hash does not match manifest \(label) in the store")
            }
        } else {
            walk.add(.failure, StatusCode.algorithmUnsupported, url: ref.url, ref.alg ?? claim.alg)
        }

        // The ingredient's claim: signature, credential, timestamp, its hashed URIs.
        var scratch = C2PAReport(integrity: .intact) // no container: the JPEG pad rule is the active manifest's
        scratch.claimVersion = claim.version // the v1 timestamp rule (C2PAValidator+Signature)
        _ = verifySignature(manifest: target, claimBytes: Array(claimBytes),
                            url: JUMBFURI.absolute(manifest: label, path: "c2pa.signature"), report: &scratch)
        _ = checkAssertionReferences(claim: claim, manifest: target, store: store, report: &scratch)
        walk.add(scratch, manifest: label)
        if let why = scratch.signatureUnusable { walk.signatureUnusable = walk.signatureUnusable ?? "ingredient \(label): \(why)" }

        // Its own ingredients, once per manifest.
        if walk.visited.insert(label).inserted {
            walk.path.append(label)
            walkIngredients(of: claim, in: target, store: store, depth: depth + 1, walk: &walk)
            walk.path.removeLast()
        }
    }

    /// Every status the store's ingredient assertions recorded, URLs made absolute against the
    /// ingredient's manifest (c2pa-rs compares deltas against all of them, store-wide).
    func recordedStatuses(in store: ManifestStore) -> Set<IngredientAssertion.RecordedStatus> {
        var out: Set<IngredientAssertion.RecordedStatus> = []
        for m in store.manifests {
            for box in m.assertions {
                guard let label = box.label, IngredientAssertion.version(ofLabel: label) != nil,
                      let content = try? Manifest.cborContent(of: box),
                      let ingredient = try? IngredientAssertion(label: label, cbor: content) else { continue }
                let owner = ingredient.manifestReference.flatMap { JUMBFURI.manifestLabel(of: $0.url) }
                for s in ingredient.recordedStatuses {
                    let url = s.url.map { u in owner.map { absoluteURL(u, manifest: $0) } ?? u }
                    out.insert(.init(code: s.code, url: url))
                }
            }
        }
        return out
    }
}

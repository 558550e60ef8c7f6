import Crypto

/// The rules c2pa-rs applies to every manifest while loading a store (sdk/src/store.rs
/// `from_jumbf`), before any validation: a store that breaks one is not read at all (its
/// Reader fails), so ours reports `malformed`.
///
/// - A claim without `alg` cannot hash its own references: `algorithm.unsupported`
///   ("no hashing algorithm found for claim").
/// - Pre-release (C2PA 0.x, before 1.0) content: a claim stored as JSON instead of CBOR, or a
///   first assertion whose hashed URI covers only its content box (the data) rather than the
///   superbox payload (`Store::is_old_assertion`): `manifest.prerelease`.
///
/// A claim that does not parse is left to the validator (`claim.malformed`).
extension ManifestStore {
    func checkLoadRules() throws(JUMBFError) {
        for m in manifests {
            guard let claimBox = m.claimBox, let claimLabel = claimBox.label else { continue }
            if claimBox.contentBoxes(ofType: "cbor").isEmpty, !claimBox.contentBoxes(ofType: "json").isEmpty {
                throw .prerelease(manifest: m.label, reason: "claim stored as JSON")
            }
            guard let bytes = m.claimBytes, let claim = try? Claim(label: claimLabel, bytes: bytes) else { continue }
            guard let claimAlg = claim.alg else { throw .claimAlgorithmMissing(manifest: m.label) }
            // c2pa-rs checks the first assertion of the store only.
            guard let first = m.assertions.first, let label = first.label,
                  let ref = claim.assertionReferences.first(where: { $0.url.split(separator: "/").last.map(String.init) == label }),
                  let alg = DigestAlgorithm(c2paName: ref.alg ?? claimAlg),
                  let data = first.children.last(where: { !$0.isSuperbox }) else { continue }
            if MessageDigest.digest(Array(data.payload), alg) == ref.hash {
                throw .prerelease(manifest: m.label, reason: "assertion \(label) is hashed over its content only (pre-1.0 hashing)")
            }
        }
    }
}

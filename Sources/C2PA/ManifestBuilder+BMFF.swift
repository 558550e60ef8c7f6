import Crypto
import Ground

extension ManifestBuilder {
    /// How the claim names its assertions.
    public enum AssertionURIForm: Sendable {
        /// `self#jumbf=c2pa.assertions/<label>` (c2pa-rs today).
        case relative
        /// `self#jumbf=c2pa/<manifest>/c2pa.assertions/<label>`: absolute without the leading
        /// `/`, as c2pa-rs's fragmented-MP4 fixtures (`dashinit.mp4`) carry.
        case absoluteWithoutSlash
    }

    /// `mp4` (holding no store) signed with `bmffHash` as its hard binding: the template's label
    /// version, exclusions, merkle maps and name are kept and its `hash` is computed (when the
    /// template has one; nil keeps a merkle-only assertion). `exclusionNulls` writes unset
    /// exclusion fields as CBOR `null`, as c2pa-rs once did. The store goes in a `uuid` box after
    /// `ftyp`, chunk offsets fixed.
    public func signMP4(_ mp4: [UInt8], bmffHash template: BMFFHashAssertion, exclusionNulls: Bool = false,
                        computeHash: Bool = true) throws(BuildError) -> [UInt8] {
        let reserve = try signatureReserve()
        let algorithm: DigestAlgorithm
        do { algorithm = try .c2pa(template.alg) } catch { throw .hash(error) }
        func hashAssertion(_ hash: [UInt8]?) -> (String, CBOR) {
            var a = template
            a.hash = hash
            return (BMFFHashAssertion.label(version: a.version), a.cbor(exclusionNulls: exclusionNulls))
        }
        do {
            let placeholder = try store(hashAssertion: hashAssertion(computeHash ? [UInt8](repeating: 0, count: algorithm.outputLength) : nil),
                                        signatureSize: reserve, placeholder: true)
            let (embedded, _) = try BMFFContainer.embed(placeholder, into: mp4)
            var hash: [UInt8]?
            if computeHash {
                hash = try template.computeHash(over: MemoryByteSource(embedded), algorithm: algorithm)
            }
            let final = try store(hashAssertion: hashAssertion(hash), signatureSize: reserve, placeholder: false)
            return try BMFFContainer.replace(final, in: embedded)
        } catch let e as BuildError { throw e } catch let e as ContainerError { throw .container(e) }
        catch let e as HashAssertionError { throw .hash(e) } catch { throw .layoutUnstable }
    }
}

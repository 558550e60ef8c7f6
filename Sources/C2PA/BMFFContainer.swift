import Ground

/// The C2PA manifest store in an ISO BMFF file: a top-level `uuid` ContentProvenanceBox
///
///     uuid(usertype d8fec3d6-1b0e-483c-9297-5828877ec481) version(u8)=0 flags(u24)=0
///          purpose(UTF-8, NUL) merkleOffset(u64) JUMBF manifest store
///
/// for purpose `manifest` (c2pa-rs also reads `original`; `update` stores are not read here).
/// Boxes of purpose `merkle` (the proofs of a BMFF Merkle hash) must decode (`badMerkleBox`).
public enum BMFFContainer {
    public static func manifest(in source: some ByteSource) throws(ContainerError) -> ManifestLookup {
        try manifest(in: source, boxes: BMFFBox.parse(source))
    }

    public static func manifest(in source: some ByteSource, boxes: [BMFFBox]) throws(ContainerError) -> ManifestLookup {
        guard boxes.first?.type == "ftyp" else { throw .notBMFF }
        var found: ManifestLocation?
        for b in boxes where b.type == "uuid" && b.userType == BMFFBox.c2paUserType {
            let body = (b.range.lowerBound + Int64(b.headerLength))..<b.range.upperBound
            let bytes: [UInt8]
            do { bytes = try source.readExactly(at: body.lowerBound, count: Int(body.count)) } catch { throw .io(error) }
            guard bytes.count > 4, let nul = bytes[4...].firstIndex(of: 0) else { return .absent(reason: "badPurpose") }
            let purpose = String(decoding: bytes[4..<nul], as: UTF8.self)
            if purpose == "merkle" {
                // c2pa-rs decodes every merkle box while reading the store; one that does not
                // decode fails the read.
                do { _ = try BMFFHashAssertion.MerkleProofBox(body: Array(bytes[(nul + 1)...]), strictPadding: false) } catch {
                    throw .badMerkleBox(offset: b.range.lowerBound)
                }
                continue
            }
            guard purpose == "manifest" || purpose == "original" else { continue }
            guard let merkle = BigEndian.u64(bytes, nul + 1) else { return .absent(reason: "badPurpose") }
            if found != nil { throw .tooManyManifestStores }
            found = ManifestLocation(storeBytes: Array(bytes[(nul + 9)...]), ranges: [b.range], merkleOffset: merkle)
        }
        guard let found else { return .absent(reason: "none") }
        return .found(found)
    }

    /// The file offset of the first top-level C2PA `uuid` box of purpose `merkle`, nil when none.
    public static func firstMerkleBoxOffset(in source: some ByteSource, boxes: [BMFFBox]) -> Int64? {
        for b in boxes where b.type == "uuid" && b.userType == BMFFBox.c2paUserType {
            if (try? source.read(at: b.bodyRange.lowerBound + 4, count: 7)) == Array("merkle".utf8) + [0] { return b.range.lowerBound }
        }
        return nil
    }
}

import C2PA
import FuzzSupport

// Claims (v1 and v2) and the assertions the validator decodes: data hash, BMFF hash,
// ingredient, CAWG identity. The first byte picks the reader, the rest is its CBOR.
fuzzMain { bytes in
    guard let selector = bytes.first else { return }
    let body = Array(bytes.dropFirst())
    switch selector % 6 {
    case 0: _ = try? Claim(label: "c2pa.claim.v2", bytes: body)
    case 1: _ = try? Claim(label: "c2pa.claim", bytes: body)
    case 2: if let c = try? CBOR(decoding: body) { _ = try? DataHashAssertion(cbor: c) }
    case 3: if let c = try? CBOR(decoding: body) { _ = try? BMFFHashAssertion(label: "c2pa.hash.bmff.v2", cbor: c) }
    case 4: if let c = try? CBOR(decoding: body) { _ = try? IngredientAssertion(label: "c2pa.ingredient.v3", cbor: c) }
    default: _ = try? IdentityAssertion(parsing: body)
    }
}

import Crypto
import FuzzSupport

// X.509 chains as a COSE x5chain carries them: the input is split into certificates by a
// 2-byte big-endian length before each; every one is parsed and its fields read, the C2PA
// profile checked, and the chain validated with the last certificate as the anchor.
fuzzMain { bytes in
    var certificates: [Certificate] = []
    var at = 0
    while at + 2 <= bytes.count, certificates.count < 4 {
        let n = Int(bytes[at]) << 8 | Int(bytes[at + 1])
        at += 2
        guard n <= bytes.count - at else { break }
        if let c = try? Certificate(der: Array(bytes[at..<at + n])) { certificates.append(c) }
        at += n
    }
    for c in certificates {
        _ = (c.subject, c.issuer, c.serialNumberHex, c.notBefore, c.keyFingerprint, c.publicKey)
        _ = c.c2paProfileViolations(at: nil)
    }
    guard let leaf = certificates.first, let anchor = certificates.last,
          let anchors = try? TrustAnchors([anchor]) else { return }
    _ = validateChain(leaf: leaf, intermediates: Array(certificates.dropFirst().dropLast()),
                      anchors: anchors, at: nil, purpose: .signing)
}

import C2PA
import FuzzSupport

// COSE_Sign1 (RFC 9052) as C2PA signatures carry it (tagged or not, detached payload,
// x5chain in either header, sigTst/sigTst2, pad) and the embedded form of identity assertions.
fuzzMain { bytes in
    if let sign1 = try? COSESign1(parsing: bytes) {
        _ = try? sign1.certificateChain()
    }
    _ = try? EmbeddedSign1(parsing: bytes)
}

import C2PA
import FuzzSupport
import Verify

// The whole C2PA validation of one file (container → store → claim → assertions → COSE →
// certificates → time stamp → hard binding), as `verify` runs it, with no trust anchors.
let validator = C2PAValidator()
fuzzMain { bytes in
    _ = validator.validate(source: MemoryByteSource(bytes))
}

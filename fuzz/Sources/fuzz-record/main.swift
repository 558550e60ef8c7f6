import CaptureFormat
import FuzzSupport

// The capture app's signed record assertion and its context-tree assertion (deterministic CBOR).
fuzzMain { bytes in
    _ = try? CaptureRecord(decoding: bytes)
    _ = try? ContextTreeAssertion(decoding: bytes)
}

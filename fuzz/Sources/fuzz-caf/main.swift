import FuzzSupport
import Ground
import Media

// The CAF audio master (and any other sidecar libavformat recognises) as the project reads it:
// `MediaFacts` over memory. libav itself is not instrumented (it is loaded with dlopen), so
// coverage counts the Swift side only; ASan still sees libav's reads of the project's buffers.
fuzzMain { bytes in
    _ = try? MediaFacts.read(source: MemoryByteSource(bytes), name: "audio.caf")
}

import FuzzSupport
import Ground
import Media

// An MP4/MOV as the project reads its facts: `MediaFacts` over memory, which asks the `moov`
// reader (`MovieHeader`) first and libavformat where it declines. libav itself is not
// instrumented (dlopen), so coverage counts the Swift side: the box walk, the sample tables,
// the elementary stream descriptor.
fuzzMain { bytes in
    _ = try? MediaFacts.read(source: MemoryByteSource(bytes), name: "video.mp4")
}

import CaptureFormat
import Crypto
import FuzzSupport
import Ground

// The ring listing as the verifier builds it from a folder: the input is split into frame
// names (LF-separated, as raw bytes, so names that are not UTF-8 are tried too), each paired
// with the SHA-256 of its name; the listing must refuse bad and duplicate names.
fuzzMain { bytes in
    let frames = bytes.split(separator: 0x0a, omittingEmptySubsequences: false).prefix(64).map { raw in
        (name: String(decoding: raw, as: UTF8.self), sha256: ContentID.sha256(of: Array(raw)))
    }
    guard let listing = try? RingListing.listing(frames) else { return }
    precondition(listing.count >= frames.count * 67, "listing shorter than its frames")
}

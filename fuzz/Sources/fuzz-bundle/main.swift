import CaptureFormat
import FuzzSupport
import Foundation

// Selective-disclosure bundles (JSON) and their verification against the bundle's own root.
fuzzMain { bytes in
    guard let bundle = try? DisclosureBundle(json: Data(bytes)) else { return }
    _ = bundle.verify()
}

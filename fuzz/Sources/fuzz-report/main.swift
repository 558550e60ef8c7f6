import Foundation
import FuzzSupport
import Verify

// Stored reports (JSON): the strict reader `analyze` uses (`CaptureReport(strictJSON:)`) must
// read exactly what `JSONDecoder` with `.iso8601` dates reads whenever it accepts an input.
fuzzMain { bytes in
    guard let strict = bytes.withUnsafeBytes({ CaptureReport(strictJSON: $0) }) else { return }
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    guard let theirs = try? decoder.decode(CaptureReport.self, from: Data(bytes)), theirs == strict else {
        fatalError("strict report reader accepted what JSONDecoder reads otherwise")
    }
}

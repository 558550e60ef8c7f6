import CAV
import CAVLoader

/// libav error numbers as text (`av_strerror`; `av_err2str` is a macro that does not import).
enum AVErrorText {
    static func describe(_ code: Int32) -> String {
        var buf = [CChar](repeating: 0, count: 256)
        let rc = buf.withUnsafeMutableBufferPointer { cav_av_strerror(code, $0.baseAddress, $0.count) }
        if rc < 0 { return "libav error \(code)" }
        return String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static let eof = exhibit_AVERROR_EOF
    static let again = exhibit_AVERROR(EAGAIN)
}

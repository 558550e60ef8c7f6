/// A failure of the generator, with a stable `code`.
public struct SynthError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `synth.usage`, `synth.ffmpeg`, `synth.io`, `synth.mp4`, `synth.sign`, `synth.crypto`, `synth.commit`.
    public let code: String
    public let detail: String
    public init(_ code: String, _ detail: String) {
        self.code = code
        self.detail = detail
    }
    public var description: String { "\(code): \(detail)" }
}

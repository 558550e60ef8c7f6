import Ground

/// Why libjpeg-turbo could not read, decode or encode a JPEG. `code` is stable (Ground's status-code
/// table); `detail` is `tjGetErrorStr2`'s message.
public enum TurboJPEGError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `tjInitDecompress` / `tjInitCompress` returned no handle (out of memory).
    case handleUnavailable(detail: String)
    /// `tjDecompressHeader3` refused the bytes (not a JPEG, or no frame header).
    case headerUnreadable(detail: String)
    /// The picture is larger than the caller's cap (checked before anything is allocated).
    case dimensionsTooLarge(width: Int, height: Int)
    /// The colour space cannot be decoded to planes (CMYK, YCCK): the caller decodes otherwise.
    case colorSpaceUnsupported(Int32)
    /// libjpeg-turbo warned (a premature end, corrupt entropy data): the picture would be damaged.
    /// Decoding stops at the first warning (`TJFLAG_STOPONWARNING`).
    case damaged(detail: String)
    /// The decoder failed (broken data, too many progressive scans).
    case decodeFailed(detail: String)
    /// The encoder refused its input (a plane too small for the picture, a quality outside
    /// 1…100) or failed.
    case encodeFailed(detail: String)

    public var code: String {
        switch self {
        case .handleUnavailable: StatusCode.turboJPEGHandleUnavailable
        case .headerUnreadable: StatusCode.turboJPEGHeaderUnreadable
        case .dimensionsTooLarge: StatusCode.turboJPEGDimensionsTooLarge
        case .colorSpaceUnsupported: StatusCode.turboJPEGColorSpaceUnsupported
        case .damaged: StatusCode.turboJPEGDamaged
        case .decodeFailed: StatusCode.turboJPEGDecodeFailed
        case .encodeFailed: StatusCode.turboJPEGEncodeFailed
        }
    }

    public var description: String {
        switch self {
        case .handleUnavailable(let d), .headerUnreadable(let d), .damaged(let d), .decodeFailed(let d), .encodeFailed(let d):
            "\(code): \(d)"
        case .dimensionsTooLarge(let w, let h): "\(code): \(w)x\(h)"
        case .colorSpaceUnsupported(let c): "\(code): TJCS \(c)"
        }
    }
}

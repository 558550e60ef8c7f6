import CAV
import CAVLoader
import Ground

/// Owns a `SwsContext` converting one picture size and format to another.
final class Scaler: @unchecked Sendable {
    let context: OpaquePointer
    let key: Key

    /// What a context converts: source size and format, target size and format, flags.
    struct Key: Hashable {
        var srcWidth, srcHeight: Int
        var srcFormat: Int32
        var width, height: Int
        var format: Int32
        var flags: Int32
    }

    init(from src: Frame, width: Int, height: Int, format: AVPixelFormat, flags: Int32) throws(MediaError) {
        try LibAV.require()
        try Frame.checkDimensions(width: width, height: height)
        guard let c = cav_sws_getContext(Int32(src.width), Int32(src.height), src.format, Int32(width), Int32(height),
                                     format, flags, nil, nil, nil) else {
            throw .scaleFailed(detail: "no conversion from \(src.width)x\(src.height) format \(src.format.rawValue)")
        }
        context = c
        key = Key(srcWidth: src.width, srcHeight: src.height, srcFormat: src.format.rawValue, width: width, height: height,
                  format: format.rawValue, flags: flags)
    }

    deinit { cav_sws_freeContext(context) }

    /// `src` scaled into a new frame of the given size and format. SWS_AREA averages the source
    /// pixels each target pixel covers (the right filter for large reductions). The context
    /// comes from `ScalerPool` when one of the same conversion is idle (making one —
    /// `sws_init_context`, the filter coefficients — cost more than the scaling itself at these
    /// sizes); a context keeps no state between pictures, so the output is the same
    /// (`pooled: false`, a fresh context: tested equal).
    static func scale(_ src: Frame, width: Int, height: Int, format: AVPixelFormat, flags: Int32 = exhibit_SWS_AREA,
                      pooled: Bool = true) throws(MediaError) -> Frame {
        let key = Key(srcWidth: src.width, srcHeight: src.height, srcFormat: src.format.rawValue, width: width, height: height,
                      format: format.rawValue, flags: flags)
        let scaler: Scaler
        if pooled, let idle = ScalerPool.take(key) {
            scaler = idle
        } else {
            scaler = try Scaler(from: src, width: width, height: height, format: format, flags: flags)
        }
        let dst = try Frame(width: width, height: height, format: format)
        let rc = cav_sws_scale_frame(scaler.context, dst.pointer, src.pointer)
        if rc < 0 { throw .scaleFailed(detail: AVErrorText.describe(rc)) }
        if pooled { ScalerPool.give(scaler) }
        return dst
    }
}

/// Idle scaling contexts, by conversion, for `Scaler.scale` to reuse: a thread takes one (no
/// two threads ever share a context) and gives it back after its picture. At most
/// `perKey` idle contexts of one conversion and `maxKeys` conversions are kept (the first
/// ones seen; a context over the bound is freed), so a run over pictures of many sizes holds
/// a bounded number.
enum ScalerPool {
    static let perKey = 4
    static let maxKeys = 16
    private static let idle = Locked<[Scaler.Key: [Scaler]]>([:])

    static func take(_ key: Scaler.Key) -> Scaler? {
        idle.withLock { $0[key]?.popLast() }
    }

    static func give(_ scaler: Scaler) {
        idle.withLock { pool in
            guard pool[scaler.key] != nil || pool.count < maxKeys, pool[scaler.key, default: []].count < perKey else { return }
            pool[scaler.key, default: []].append(scaler)
        }
    }

    /// Idle contexts held (for tests).
    static var count: Int { idle.withLock { $0.values.reduce(0) { $0 + $1.count } } }
}

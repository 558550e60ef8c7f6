import CAV
import TurboJPEG

extension Frame {
    /// A frame holding a copy of libjpeg-turbo's decoded planes, in the full-range (`yuvj`)
    /// format of their subsampling: what libavcodec's mjpeg decoder would have produced.
    convenience init(planes p: JPEGPlanes) throws(MediaError) {
        let format: AVPixelFormat = switch p.subsampling {
        case .s444: AV_PIX_FMT_YUVJ444P
        case .s422: AV_PIX_FMT_YUVJ422P
        case .s420: AV_PIX_FMT_YUVJ420P
        case .s440: AV_PIX_FMT_YUVJ440P
        case .s411: AV_PIX_FMT_YUVJ411P
        case .gray: AV_PIX_FMT_GRAY8
        }
        try self.init(width: p.width, height: p.height, format: format)
        try setPlanes(p.planes, widths: p.widths, heights: p.heights)
    }

    /// A GRAY8 frame over the first (luma or gray) plane only.
    convenience init(luma p: JPEGPlanes) throws(MediaError) {
        try self.init(width: p.width, height: p.height, format: AV_PIX_FMT_GRAY8)
        try setPlanes([p.planes[0]], widths: [p.widths[0]], heights: [p.heights[0]])
    }

    /// Copies unpadded planes (rows of `widths[i]` bytes) into this frame's strided buffers.
    private func setPlanes(_ planes: [[UInt8]], widths: [Int], heights: [Int]) throws(MediaError) {
        let data = [pointer.pointee.data.0, pointer.pointee.data.1, pointer.pointee.data.2]
        let strides = [pointer.pointee.linesize.0, pointer.pointee.linesize.1, pointer.pointee.linesize.2].map(Int.init)
        for i in planes.indices {
            let w = widths[i], h = heights[i]
            guard i < 3, let base = data[i], strides[i] >= w, planes[i].count >= w * h else {
                throw .scaleFailed(detail: "plane \(i) of \(width)x\(height) does not fit")
            }
            planes[i].withUnsafeBufferPointer { src in
                for y in 0..<h { base.advanced(by: y * strides[i]).update(from: src.baseAddress! + y * w, count: w) }
            }
        }
    }
}

/// PNG predictors of a PDF `FlateDecode` stream (ISO 32000-1 §7.4.4.4, `/Predictor` 10–15):
/// each row of `Columns × Colors × BitsPerComponent` bits starts with its PNG filter type
/// (None, Sub, Up, Average, Paeth). Cross-reference streams use them (mostly Up, 12).
enum PDFPredictor {
    static func undo(_ data: [UInt8], parameters p: [String: PDFObject], offset: Int64) throws(ContainerError) -> [UInt8] {
        let predictor = p["Predictor"]?.integerValue ?? 1
        if predictor == 1 { return data }
        guard predictor >= 10, predictor <= 15 else { throw .badPDF(offset: offset) } // TIFF predictor 2: not read
        let colors = p["Colors"]?.integerValue ?? 1
        let bits = p["BitsPerComponent"]?.integerValue ?? 8
        let columns = p["Columns"]?.integerValue ?? 1
        guard (1...32).contains(colors), [1, 2, 4, 8, 16].contains(bits), (1...(1 << 20)).contains(columns) else {
            throw .badPDF(offset: offset)
        }
        let rowBytes = Int((colors * bits * columns + 7) / 8)
        let bpp = max(1, Int(colors * bits / 8))
        var out: [UInt8] = []
        out.reserveCapacity(data.count)
        var previous = [UInt8](repeating: 0, count: rowBytes)
        var at = 0
        while at < data.count {
            guard at + 1 + rowBytes <= data.count else { throw .badPDF(offset: offset) }
            let type = data[at]
            var row = Array(data[(at + 1)..<(at + 1 + rowBytes)])
            for i in 0..<rowBytes {
                let a = i >= bpp ? Int(row[i - bpp]) : 0
                let b = Int(previous[i])
                let c = i >= bpp ? Int(previous[i - bpp]) : 0
                let add: Int
                switch type {
                case 0: add = 0
                case 1: add = a
                case 2: add = b
                case 3: add = (a + b) / 2
                case 4:
                    let pa = abs(b - c), pb = abs(a - c), pc = abs(a + b - 2 * c)
                    add = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
                default: throw .badPDF(offset: offset)
                }
                row[i] = UInt8(truncatingIfNeeded: Int(row[i]) + add)
            }
            out += row
            previous = row
            at += 1 + rowBytes
        }
        return out
    }
}

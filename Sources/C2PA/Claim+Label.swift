/// The claim box's JUMBF label, read as c2pa-rs reads it: the box itself is found by its
/// description type UUID (`c2cl`), so the label only bounds the version and names the box.
///
///     label    = base [ "." version ] [ "__" instance ]      (c2pa-rs labels.rs `parse_label`)
///     version  = "v" 1*DIGIT                                  (1 when absent)
extension Claim {
    /// The version a label names (c2pa-rs `labels::version`): the `.vN` suffix of the label
    /// without its `__instance`, 1 when there is none, when it is the whole label (`v2`), or
    /// when N does not fit an `Int` (c2pa-rs's `usize` parse fails the same way).
    public static func labelVersion(_ label: String) -> Int {
        var name = Substring(label)
        let scalars = Array(name.utf8)
        if let i = scalars.indices.dropLast().last(where: { scalars[$0] == 0x5F && scalars[$0 + 1] == 0x5F }) {
            name = Substring(String(decoding: scalars[..<i], as: UTF8.self))
        }
        guard let dot = name.lastIndex(of: ".") else { return 1 }
        let last = name[name.index(after: dot)...]
        guard last.first == "v", last.count > 1,
              last.dropFirst().allSatisfy({ $0.isASCII && $0.isNumber }),
              let n = Int(last.dropFirst()) else { return 1 }
        return n
    }

    /// Whether c2pa-rs's manifest walk recognises the label as a claim box's
    /// (`Claim::box_name_label_instance`: the label less a `.vD` suffix is `c2pa.claim`). c2pa-rs
    /// logs an unrecognised one ("unrecognized manifest box") but keeps reading and reports
    /// nothing; ours reports `claim.labelUnrecognized`, informational.
    public static func isRecognizedLabel(_ label: String) -> Bool {
        if label == "c2pa.claim" { return true }
        guard label.hasPrefix("c2pa.claim.v"), label.count == "c2pa.claim.v".count + 1,
              let d = label.last, d.isASCII, d.isNumber else { return false }
        return true
    }
}

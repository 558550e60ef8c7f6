/// "Did you mean …?" for a misspelt subcommand, option or value: the candidates closest to
/// what was typed by optimal-string-alignment distance (insertions, deletions, substitutions
/// and swaps of two neighbours, each 1), at most 2 and at most a third of the word's length
/// (at least 1); or, failing that, the one candidate that starts with what was typed.
public enum Suggestion {
    /// The closest candidates, best first (at most three; empty when none is close).
    public static func closest(to word: String, among candidates: [String]) -> [String] {
        let typed = Array(word.lowercased())
        let limit = max(1, min(2, typed.count / 3))
        var scored: [(String, Int)] = []
        for c in Set(candidates) where c != word {
            let d = distance(typed, Array(c.lowercased()))
            if d <= limit { scored.append((c, d)) }
        }
        if scored.isEmpty {
            let prefixed = candidates.filter { $0.hasPrefix(word) && $0 != word }
            return prefixed.count == 1 ? prefixed : []
        }
        return scored.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(3).map(\.0)
    }

    /// `"; did you mean 'a'?"`, `"; did you mean 'a' or 'b'?"`, or `""`.
    public static func didYouMean(_ word: String, among candidates: [String]) -> String {
        let found = closest(to: word, among: candidates)
        guard !found.isEmpty else { return "" }
        let quoted = found.map { "'\($0)'" }
        let list = quoted.count == 1 ? quoted[0] : quoted.dropLast().joined(separator: ", ") + " or " + quoted.last!
        return "; did you mean \(list)?"
    }

    /// Optimal string alignment distance (Damerau-Levenshtein without repeated edits of one
    /// substring).
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}

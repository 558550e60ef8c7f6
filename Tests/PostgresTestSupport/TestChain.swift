import Crypto
import Foundation

/// The custody events of the PostgreSQL tests and of their probe processes: `body ‖ hash` with
/// hash = SHA-256(seq as 8 bytes big-endian ‖ prevHash ‖ body), a rule psql can recompute
/// (`sha256(int8send(seq) || prev_hash || body)`), so the server checks every link itself.
public enum TestChain {
    /// The `make` closure of `CustodyChain.append` for an event whose body is `text #seq`.
    public static func event(_ text: String) -> (UInt64, [UInt8]) -> (stored: [UInt8], hash: [UInt8]) {
        { seq, prev in
            let body = Array("\(text) #\(seq)".utf8)
            let hash = MessageDigest.sha256((0..<8).map { UInt8(truncatingIfNeeded: seq >> (56 - 8 * UInt64($0))) } + prev + body)
            return (body + hash, hash)
        }
    }
}

extension TestSchema {
    /// psql's verdict on the schema's whole custody chain, `n|distinct|min|max|bad|headIsLast`:
    /// events, distinct seqs, min and max seq, links or hashes that do not hold (by the rule of
    /// `TestChain.event`), and whether the head is the last event.
    public func custodyVerdict() -> String {
        psql("""
            SELECT count(*), count(DISTINCT seq), coalesce(min(seq), 0), coalesce(max(seq), 0),
                   count(*) FILTER (WHERE seq <> before_seq + 1 OR prev_hash <> before_hash
                                    OR hash <> sha256(int8send(seq) || prev_hash || substring(stored FOR octet_length(stored) - 32))),
                   (SELECT h.seq FROM custody_head h) = coalesce(max(seq), 0)
            FROM (SELECT *, coalesce(lag(seq) OVER w, 0) AS before_seq,
                         coalesce(lag(hash) OVER w, decode(repeat('00', 32), 'hex')) AS before_hash
                  FROM custody_events WINDOW w AS (ORDER BY seq)) chain
            """).output
    }
}

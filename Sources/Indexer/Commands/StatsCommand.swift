import CAS
import Foundation

/// `stats`: blobs, bytes, dedup, map use.
struct StatsCommand: Command {
    static let name = "stats"
    static let abstract = "Show counts: blobs, bytes, chunks, dedup ratio, map use."
    static let discussion = """
    Fields: blobs, bytes (sum of blob sizes), chunks, stored-bytes (distinct chunk bytes),
    chunk-refs, dedup (bytes / stored-bytes), pending-puts, chunk-size, map-size, map-used.
    """

    static func run(_ args: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let s = try context.openStore(access: .readIfNotWritable).stats()
        let fields: [(String, JSONValue)] = [
            ("blobs", .int(Int64(s.blobs))), ("bytes", .int(Int64(s.logicalBytes))),
            ("chunks", .int(Int64(s.chunks))), ("storedBytes", .int(Int64(s.storedBytes))),
            ("chunkRefs", .int(Int64(s.chunkReferences))), ("dedup", .double(s.dedupRatio)),
            ("pendingPuts", .int(Int64(s.pendingPuts))), ("chunkSize", .int(Int64(s.chunkSize))),
            ("mapSize", .int(Int64(s.mapSize))), ("mapUsed", .int(Int64(s.mapUsed))),
        ]
        if context.json {
            context.console.json(.object(fields))
        } else {
            for (k, v) in fields { context.console.out("\(kebab(k)) \(v.encoded())") }
        }
        return .success
    }

    static func kebab(_ s: String) -> String {
        s.reduce(into: "") { out, ch in
            if ch.isUppercase { out += "-" + ch.lowercased() } else { out.append(ch) }
        }
    }
}

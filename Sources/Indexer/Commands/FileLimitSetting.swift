import CLI
import Ground

/// `EXHIBIT_MAX_FILE_SIZE` (README "Environment"): the largest file `put`, `ingest` and
/// `verify` read (bytes, or with a `K`/`M`/`G`/`T` suffix; default 1 TiB). A file over it is a
/// named per-item error (`io.tooLarge`); a value that does not parse is a usage error (exit 2),
/// never silently the default.
enum FileLimitSetting {
    static func check(_ context: CommandContext, command: String) throws {
        guard let text = context.environment[FileLimits.environmentVariable] else { return }
        guard FileLimits.configured(text) != nil else {
            throw UsageError("\(FileLimits.environmentVariable)=\(text): not a size (bytes, or a number with K, M, G or T)", command: command)
        }
    }
}

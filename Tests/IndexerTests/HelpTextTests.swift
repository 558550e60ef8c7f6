import Ground

@testable import Indexer
import TestLiterals
import Testing

@Suite struct HelpTextTests {
    @Test func rootHelpIsPinned() {
        let r = cli(["--help"])
        #expect(r.code == .success)
        #expect(r.out == """
        OVERVIEW: Exhibit Archive: a batch archival indexer for signed captures over an LMDB-backed
        content-addressed store. It reports what was checked, what matched and what is absent;
        it gives no authenticity verdicts.

        USAGE: exhibit-archive <subcommand> [options]

        OPTIONS:
          -h, --help              Show help information.
          --version               Show the version.

        SUBCOMMANDS:
          init                    Create an empty archive (or check an existing one).
          put                     Store files in the content-addressed store.
          get                     Write a blob's bytes to stdout or a file, verified against its ID.
          stat                    Show a blob's size and chunks.
          audit                   Re-hash every blob (or a random sample) and list damage by blob.
          stats                   Show counts: blobs, bytes, chunks, dedup ratio, map use.
          gc                      Remove chunks left unreferenced by interrupted puts.
          verify                  Check captures in place: C2PA, the signed record, sidecars, bundles.
          ingest                  Verify and store every capture of capture dumps (idempotent, resumable).
          worker                  Ingest the captures of the archive's work queue (after ingest --enqueue); any number at once.
          queue                   Show the work queue: pending, running, done and failed jobs, and the errors of failed ones.
          analyze                 Make the media analyses of stored records from their stored blobs (after ingest --defer-media).
          trust                   Add, list or remove the archive's signer and TSA trust anchors.
          reverify                Re-verify stored records from their stored bytes against today's trust anchors.
          log                     List custody events, or prove the hash chain unbroken (--verify).
          query                   List or count records by key, capture time, state, sidecar, kind, trust.
          show                    Show one record: fields, sidecars, variants, files, findings, custody.
          export                  Export records as a signed chain-of-custody BagIt bag.
          verify-export           Check an exported bag: completeness, hashes, signature, custody chain.
          completion              Print a shell completion script (bash, zsh or fish).
          man                     Print the manual page (roff; view it with: exhibit-archive man | man -l -).

          See 'exhibit-archive help <subcommand>' for detailed help.

        """)
        #expect(cli(["help"]).out == r.out)
        #expect(cli(["-h"]).out == r.out)
    }

    @Test func getHelpIsPinned() {
        let r = cli(["get", "--help"])
        #expect(r.code == .success)
        #expect(r.out == """
        OVERVIEW: Write a blob's bytes to stdout or a file, verified against its ID.

        Every chunk and the whole blob are re-hashed; on a mismatch nothing more is written and the
        exit code is 1. With -o the bytes go to a temporary file renamed to FILE only when all of
        them matched, so FILE never holds a partial or damaged blob. On stdout, bytes before the
        damaged chunk have already been written.

        USAGE: exhibit-archive get [--archive <dir>] [--output <file>] [--json] <id>

        ARGUMENTS:
          <id>                    The blob's SHA-256, 64 hex digits.

        OPTIONS:
          --archive <dir>         Archive directory (default: $EXHIBIT_ARCHIVE, else ./archive).
          -o, --output <file>     Write to this file instead of stdout.
          --json                  Print JSON Lines on stdout.
          -h, --help              Show help information.

        """)
        #expect(cli(["help", "get"]).out == r.out)
    }

    @Test func everyCommandHasHelpWithItsUsage() {
        for command in CommandRunner.commands {
            let r = cli([command.name, "-h"])
            #expect(r.code == .success)
            #expect(r.out.hasPrefix("OVERVIEW: \(command.abstract)\n"))
            #expect(r.out.contains("USAGE: exhibit-archive \(command.name)"))
            #expect(r.out.contains("-h, --help"))
            #expect(r.out.contains("--archive <dir>") == command.usesArchive)
        }
    }
}

// swift-tools-version:6.0
// Exhibit Archive: a batch archival indexer for signed captures, over an LMDB-backed
// content-addressed store. No outside Swift packages: C libraries come from Debian's -dev
// packages, each wrapped by one `.systemLibrary` target and one thin Swift wrapper module.
import PackageDescription

let package = Package(
    name: "ExhibitArchive",
    products: [
        .executable(name: "exhibit-archive", targets: ["Indexer"]),
        .executable(name: "capture-synth", targets: ["CaptureSynth"]),
        // Library products for the fuzz harnesses (fuzz/Package.swift depends on this package by path).
        .library(name: "C2PA", targets: ["C2PA"]),
        .library(name: "CaptureFormat", targets: ["CaptureFormat"]),
        .library(name: "Crypto", targets: ["Crypto"]),
        .library(name: "Verify", targets: ["Verify"]),
        .library(name: "Media", targets: ["Media"]),
        .library(name: "Inflate", targets: ["Inflate"]),
        .library(name: "Ground", targets: ["Ground"]),
    ],
    targets: [
        // The ground floor: content IDs, byte sources, the file-system shim, the shared
        // vocabularies and the status-code table. Imports nothing of ours.
        .target(name: "Ground"),

        // C libraries (module map + shim.h each).
        .systemLibrary(name: "COpenSSL", path: "Sources/COpenSSL", pkgConfig: "libcrypto",
                       providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CLMDB", path: "Sources/CLMDB", pkgConfig: "lmdb",
                       providers: [.apt(["liblmdb-dev"])]),
        // libav: headers only (no pkgConfig, whose libs would be linked); CAVLoader dlopens the
        // libraries the first time media work runs (docs/media.md, "Loading libav").
        .systemLibrary(name: "CAV", path: "Sources/CAV",
                       providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev", "libswscale-dev"])]),
        .target(name: "CAVLoader"),
        // libjpeg-turbo's TurboJPEG API: stills decoded at a DCT scale, straight to gray or planes.
        .systemLibrary(name: "CTurboJPEG", path: "Sources/CTurboJPEG", pkgConfig: "libturbojpeg",
                       providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CCurl", path: "Sources/CCurl", pkgConfig: "libcurl",
                       providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CPQ", path: "Sources/CPQ", pkgConfig: "libpq",
                       providers: [.apt(["libpq-dev"])]),

        // Thin wrappers: the only modules that import a C module.
        .target(name: "Crypto", dependencies: ["Ground", "COpenSSL"]),
        .target(name: "LMDB", dependencies: ["Ground", "CLMDB"]),
        .target(name: "Inflate", dependencies: ["Ground", "CZlib"]),
        .target(name: "TurboJPEG", dependencies: ["Ground", "CTurboJPEG"]),
        .target(name: "Media", dependencies: ["Ground", "CAV", "CAVLoader", "TurboJPEG", "Crypto", "CaptureFormat"]),
        .target(name: "HTTP", dependencies: ["Ground", "CCurl"]),
        .target(name: "Postgres", dependencies: ["Ground", "CPQ"]),

        // The custody log's format: an event's canonical bytes, hashes and versions (v1–v3), drafts
        // and agents, and the walk that names a broken chain. Below the stores that keep the chain
        // and the stages that write and export it (docs/design.md).
        .target(name: "Custody", dependencies: ["Ground", "Crypto"]),

        // Storage. The protocols every stage talks to: blobs, records, custody log, trust.
        .target(name: "Archive", dependencies: ["Ground", "Crypto", "Custody"]),
        // Bytes by ID in the archive's LMDB environment: chunks, staging, audit, gc (docs/cas.md).
        .target(name: "CAS", dependencies: ["Ground", "LMDB", "Crypto", "Archive"]),
        // The record vocabulary (IndexedRecord, RecordBody, RecordRow, QueryError); no storage.
        .target(name: "Query", dependencies: ["Ground", "Crypto", "Archive"]),
        // The LMDB implementations of the storage protocols, in the archive's one environment:
        // the record index (`RecordIndex`, its secondary indexes and counts) and `LMDBRecordStore`,
        // the custody log (`CustodyLog`), the trust anchors (`TrustStore`, `LMDBTrustAnchorStore`),
        // and `LMDBBlobStore`, the BlobStore/BlobStaging over CAS's chunks.
        // `LMDBArchive`: the LMDB side of an archive directory (its store and, in its one environment,
        // index, custody log, trust), and the protocol-typed handle over it.
        .target(name: "ArchiveLMDB", dependencies: ["Ground", "LMDB", "Crypto", "Archive", "ArchiveHandle", "Query", "Custody", "CAS"]),
        // Blobs in an S3-compatible object store (SigV4 over HTTP): Archive's S3 BlobStore.
        .target(name: "S3", dependencies: ["Ground", "HTTP", "Crypto", "Archive"]),
        // An archive's blobs in S3 with their ledger (BlobLedger) in the archive's LMDB environment
        // (init --blobs), or in the PostgreSQL index (ArchivePostgres's PostgresBlobLedger) with --index.
        .target(name: "ArchiveS3", dependencies: ["Ground", "LMDB", "Crypto", "Archive", "S3"]),
        // The archive's PostgreSQL schema (migrations, schema_version) and the SQL of the record
        // index, custody chain, trust anchors and work queue that its PostgreSQL stores will use.
        .target(name: "ArchivePostgres", dependencies: ["Ground", "Postgres", "Query", "Archive", "Crypto"]),
        // The one archive handle the stages and the command line hold (`Archive`): where the
        // archive is, its archive.json, and its blobs, records, custody log, trust anchors and
        // export journal, protocol-typed only; no medium named.
        .target(name: "ArchiveHandle", dependencies: ["Ground", "Archive", "Query"]),
        // The one factory of that handle: reads archive.json and builds the LMDB, S3 and
        // PostgreSQL stores it names (`ArchiveOpener`). Above the implementations; only the
        // command line (and tests) depend on it.
        .target(name: "ArchiveOpen", dependencies: ["Ground", "Archive", "ArchiveHandle", "Query", "CAS", "LMDB", "ArchiveLMDB",
                                                    "S3", "ArchiveS3", "Postgres", "ArchivePostgres"]),

        // Formats: C2PA containers and codecs (readers and writers side by side), and the
        // capture app's own record, disclosure tree and streamed commitment.
        .target(name: "C2PA", dependencies: ["Ground", "Crypto", "Inflate"]),
        .target(name: "CaptureFormat", dependencies: ["Ground", "C2PA", "Crypto"]),

        // Stages.
        .target(name: "Verify", dependencies: ["Ground", "C2PA", "CaptureFormat", "Crypto", "Media"]),
        .target(name: "Ingest", dependencies: ["Ground", "Query", "Verify", "Crypto", "Media", "Archive", "ArchiveHandle", "Custody"]),
        // The media analyses of stored records (media facts, parallax, chunk recomputation,
        // thumbnails) as a stage of their own: `analyze`, after `ingest --defer-media`.
        .target(name: "Analysis", dependencies: ["Ground", "Archive", "ArchiveHandle", "Query", "Ingest", "Verify", "Media", "Custody"]),
        .target(name: "Export", dependencies: ["Ground", "Query", "Ingest", "ArchiveHandle", "Verify", "Media", "CaptureFormat", "Crypto", "C2PA", "Archive", "Custody"]),

        // Generator of signed capture dumps (capture-synth), as a library so tests make dumps in-process.
        .target(name: "Synthesis", dependencies: ["Ground", "C2PA", "CaptureFormat", "Crypto"]),

        // The command-line parser, help, completion scripts, manual page, console and progress
        // bar both executables share.
        .target(name: "CLI", dependencies: ["Ground"]),

        // Executables.
        // The command line talks to the archive through `Archive`'s protocols, the handle and its one
        // factory only (issue 14 §1): no implementation (CAS, LMDB, ArchiveLMDB, ArchiveS3, S3,
        // ArchivePostgres, Postgres) here; IndexerTests.ImportsTests fails on a stray import.
        .executableTarget(name: "Indexer", dependencies: ["Ground", "CLI", "Query", "Verify", "Ingest", "Analysis", "Export", "Crypto", "Archive", "Custody",
                                                           "ArchiveHandle", "ArchiveOpen"]),
        .executableTarget(name: "CaptureSynth", dependencies: ["CLI", "Synthesis"]),
        // Benchmark driver for bench/media.sh (not a product).
        .executableTarget(name: "MediaBench", dependencies: ["Media", "CaptureFormat"], path: "bench/MediaBench"),
        // Benchmark helper of bench/query.sh (fills an archive with synthetic records); not a product.
        .executableTarget(name: "QueryBench", dependencies: ["Query", "CAS", "LMDB", "BenchRecords", "ArchiveLMDB"], path: "bench/QueryBench"),
        // The synthetic records both query benchmarks fill their store with, and their timing loop.
        .target(name: "BenchRecords", dependencies: ["Ground", "Query"], path: "bench/BenchRecords"),
        // Benchmark helper of bench/pg.sh (fills PostgreSQL with the same records; times the SQL).
        .executableTarget(name: "PGBench", dependencies: ["ArchivePostgres", "Postgres", "Query", "Ground", "BenchRecords"], path: "bench/PGBench"),
        // Benchmark driver of bench/s3.sh (our S3 client beside boto3); not a product.
        .executableTarget(name: "S3Bench", dependencies: ["S3", "CAS", "Crypto"], path: "bench/S3Bench"),

        // The vocabularies and IDs as string literals, for tests only (Tests/TestLiterals).
        .target(name: "TestLiterals", dependencies: ["Ground"], path: "Tests/TestLiterals"),

        // One Swift Testing target per module.
        .testTarget(name: "GroundTests", dependencies: ["Ground"]),
        .testTarget(name: "CryptoTests", dependencies: ["Crypto", "Ground", "TestLiterals"]),
        .testTarget(name: "CASTests", dependencies: ["CAS", "LMDB", "Crypto", "Ground", "TestLiterals", "Archive", "BlobStoreContract", "ArchiveLMDB"]),
        .testTarget(name: "HTTPTests", dependencies: ["HTTP", "Ground"]),
        .testTarget(name: "S3Tests", dependencies: ["S3", "HTTP", "Crypto", "Ground", "TestLiterals", "ProcessSupport", "Archive", "BlobStoreContract",
                                                 "Analysis", "Ingest", "CAS", "Query", "Verify", "Synthesis", "Indexer", "CLI",
                                                 "PostgresTestSupport", "Postgres", "ArchiveS3", "Custody", "ArchiveLMDB", "ArchiveOpen"]),
        .testTarget(name: "C2PATests", dependencies: ["C2PA", "Crypto", "Inflate", "Ground", "TestLiterals"]),
        .testTarget(name: "CaptureFormatTests", dependencies: ["CaptureFormat", "C2PA", "Crypto", "Ground", "TestLiterals"]),
        .testTarget(name: "VerifyTests", dependencies: ["Verify", "C2PA", "CaptureFormat", "Crypto", "Synthesis", "Ground", "TestLiterals"]),
        .testTarget(name: "QueryTests", dependencies: ["Query", "CAS", "LMDB", "Ground", "TestLiterals", "ArchiveLMDB"]),
        .testTarget(name: "IngestTests", dependencies: ["Ingest", "CAS", "Query", "Verify", "CaptureFormat", "Synthesis", "Media", "C2PA", "Crypto", "Ground", "TestLiterals", "ArchiveContract", "Custody", "ArchiveLMDB"]),
        .testTarget(name: "AnalysisTests", dependencies: ["Analysis", "Ingest", "CAS", "Query", "Verify", "Synthesis", "Media", "Crypto", "Ground", "Custody", "ArchiveLMDB"]),
        .testTarget(name: "ExportTests", dependencies: ["Export", "CAS", "Query", "Ingest", "Verify", "CaptureFormat", "Crypto", "C2PA", "LMDB", "Synthesis", "Ground", "TestLiterals", "Custody", "ArchiveLMDB"]),
        .testTarget(name: "IndexerTests", dependencies: ["Indexer", "Ground", "TestLiterals", "Custody", "ArchiveLMDB"]),
        .testTarget(name: "CLITests", dependencies: ["CLI"]),
        .testTarget(name: "MediaTests", dependencies: ["Media", "TurboJPEG", "CaptureFormat", "Crypto", "Synthesis", "Verify", "Ground", "TestLiterals"]),
        // The PostgreSQL test server (postgres-up.sh), per-test schemas and the psql peer,
        // shared by the PostgreSQL test targets.
        .target(name: "ProcessSupport", path: "Tests/ProcessSupport"),
        // The one contract every BlobStore meets, run by CASTests (LMDB) and S3Tests (Ceph RGW).
        .target(name: "BlobStoreContract", dependencies: ["Archive", "Crypto", "Ground", "ProcessSupport"], path: "Tests/BlobStoreContract"),
        // The one contract every record, custody and trust store meets, run by IngestTests
        // (LMDB) and ArchivePostgresTests (PostgreSQL).
        .target(name: "ArchiveContract", dependencies: ["Archive", "Query", "Ingest", "CAS", "LMDB", "Crypto", "Ground", "Custody", "ArchiveLMDB"], path: "Tests/ArchiveContract"),
        // One put and one get of a large blob in a process of its own, whose peak RSS the blob
        // contract bounds (Tests/BlobStoreContract, streamingMemory); not a product.
        .executableTarget(name: "BlobStoreProbe", dependencies: ["Archive", "CAS", "S3", "Crypto", "Ground", "ArchiveLMDB"],
                          path: "Tests/BlobStoreProbe"),
        .target(name: "PostgresTestSupport", dependencies: ["Postgres", "Crypto", "ProcessSupport"], path: "Tests/PostgresTestSupport"),
        // One process of ArchivePostgresTests' concurrency proofs (custody appends, queue
        // workers), started several at once and SIGKILLed by the tests; not a product.
        .executableTarget(name: "PostgresProbe", dependencies: ["ArchivePostgres", "Postgres", "PostgresTestSupport"],
                          path: "Tests/PostgresProbe"),
        .testTarget(name: "PostgresTests", dependencies: ["Postgres", "PostgresTestSupport", "Ground"]),
        // The command line over a PostgreSQL index: init --index, ingest into PostgreSQL, and the
        // work queue (ingest --enqueue, worker processes, queue), against the real server.
        .testTarget(name: "IndexerPostgresTests", dependencies: ["Indexer", "CLI", "PostgresTestSupport", "ArchivePostgres", "Postgres",
                                                                  "Archive", "Ingest", "Query", "CAS", "Ground", "ArchiveLMDB"]),
        .testTarget(name: "ArchivePostgresTests", dependencies: ["ArchivePostgres", "Postgres", "PostgresTestSupport", "Query", "CAS", "LMDB", "Crypto", "Ground", "Archive", "ArchiveContract", "Ingest", "ArchiveLMDB"]),
        .testTarget(name: "CaptureSynthTests", dependencies: ["Synthesis", "Verify", "C2PA", "CaptureFormat", "Crypto", "CLI", "Ground", "TestLiterals"]),
    ],
    swiftLanguageModes: [.v6]
)

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
    ],
    targets: [
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
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),

        // Thin wrappers: the only modules that import a C module.
        .target(name: "Crypto", dependencies: ["COpenSSL"]),
        .target(name: "LMDB", dependencies: ["CLMDB"]),
        .target(name: "Inflate", dependencies: ["CZlib"]),
        .target(name: "Media", dependencies: ["CAV", "CAVLoader", "Crypto", "CaptureFormat"]),

        // Storage: bytes by ID (CAS) and records by key (Query), in one LMDB environment.
        .target(name: "CAS", dependencies: ["LMDB", "Crypto"]),
        .target(name: "Query", dependencies: ["LMDB", "CAS"]),

        // Formats: C2PA containers and codecs (readers and writers side by side), and the
        // capture app's own record, disclosure tree and streamed commitment.
        .target(name: "C2PA", dependencies: ["Crypto", "Inflate"]),
        .target(name: "CaptureFormat", dependencies: ["C2PA", "Crypto"]),

        // Stages.
        .target(name: "Verify", dependencies: ["C2PA", "CaptureFormat", "Crypto", "Media"]),
        .target(name: "Ingest", dependencies: ["CAS", "Query", "Verify", "Crypto", "Media"]),
        .target(name: "Export", dependencies: ["CAS", "Query", "Ingest", "Verify", "Media", "CaptureFormat", "Crypto", "C2PA"]),

        // Generator of signed capture dumps (capture-synth), as a library so tests make dumps in-process.
        .target(name: "Synthesis", dependencies: ["C2PA", "CaptureFormat", "Crypto"]),

        // Executables.
        .executableTarget(name: "Indexer", dependencies: ["CAS", "Query", "Verify", "Ingest", "Export", "Crypto"]),
        .executableTarget(name: "CaptureSynth", dependencies: ["Synthesis"]),
        // Benchmark driver for bench/media.sh (not a product).
        .executableTarget(name: "MediaBench", dependencies: ["Media", "CaptureFormat"], path: "bench/MediaBench"),
        // Benchmark helper of bench/query.sh (fills an archive with synthetic records); not a product.
        .executableTarget(name: "QueryBench", dependencies: ["Query", "CAS", "LMDB"], path: "bench/QueryBench"),

        // One Swift Testing target per module.
        .testTarget(name: "CryptoTests", dependencies: ["Crypto"]),
        .testTarget(name: "CASTests", dependencies: ["CAS", "LMDB", "Crypto"]),
        .testTarget(name: "C2PATests", dependencies: ["C2PA", "Crypto", "Inflate"]),
        .testTarget(name: "CaptureFormatTests", dependencies: ["CaptureFormat", "C2PA", "Crypto"]),
        .testTarget(name: "VerifyTests", dependencies: ["Verify", "C2PA", "CaptureFormat", "Crypto", "Synthesis"]),
        .testTarget(name: "QueryTests", dependencies: ["Query", "CAS", "LMDB"]),
        .testTarget(name: "IngestTests", dependencies: ["Ingest", "CAS", "Query", "Verify", "Synthesis", "Media", "C2PA", "Crypto"]),
        .testTarget(name: "ExportTests", dependencies: ["Export", "CAS", "Query", "Ingest", "Verify", "CaptureFormat", "Crypto", "C2PA", "LMDB", "Synthesis"]),
        .testTarget(name: "IndexerTests", dependencies: ["Indexer"]),
        .testTarget(name: "MediaTests", dependencies: ["Media", "CaptureFormat", "Crypto", "Synthesis", "Verify"]),
        .testTarget(name: "CaptureSynthTests", dependencies: ["Synthesis", "Verify", "C2PA", "CaptureFormat", "Crypto"]),
    ],
    swiftLanguageModes: [.v6]
)

// swift-tools-version:6.0
// libFuzzer harnesses (docs/fuzzing.md). Kept out of the root package so `swift build` and
// `swift test` at the root never build them; `fuzz/run.sh TARGET [SECONDS]` builds one with
// `-sanitize=fuzzer,address` and runs it. Adding a target: a folder `Sources/fuzz-<name>/`
// with one `Harness.swift`, and its name and modules in `harnesses` below.
import Foundation
import PackageDescription

/// SwiftPM names a path dependency after its folder (`main`, a worktree's name, CI's clone):
/// the root package's identity is the name of the folder above this one.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
let rootIdentity = root.lastPathComponent.lowercased()

/// Each harness: its name (`fuzz-<name>`) and the root package's library products it uses.
let harnesses: [(name: String, modules: [String])] = [
    ("jpeg", ["C2PA"]), ("jumbf", ["C2PA"]), ("bmff", ["C2PA"]), ("cbor", ["C2PA"]),
    ("cose", ["C2PA"]), ("claim", ["C2PA"]), ("manifest", ["C2PA", "Verify"]),
    ("x509", ["Crypto"]), ("tst", ["Crypto"]),
    ("record", ["CaptureFormat"]), ("ring", ["CaptureFormat", "Crypto", "Ground"]), ("bundle", ["CaptureFormat"]),
    ("caf", ["Media", "Ground"]), ("mp4", ["Media", "Ground"]), ("report", ["Verify"]),
    // The containers of issue 16 (FuzzContainers: the checks they share) and zlib.
    ("png", ["C2PA"]), ("riff", ["C2PA"]), ("tiff", ["C2PA"]), ("gif", ["C2PA"]), ("svg", ["C2PA"]),
    ("jxl", ["C2PA"]), ("id3", ["C2PA"]), ("pdf", ["C2PA"]), ("inflate", ["Inflate"]),
]
let containerHarnesses: Set = ["png", "riff", "tiff", "gif", "svg", "jxl", "id3", "pdf"]

let package = Package(
    name: "ExhibitArchiveFuzz",
    dependencies: [.package(path: "..")],
    targets: [
        .target(name: "FuzzDriver"),
        .target(name: "FuzzSupport", dependencies: ["FuzzDriver"]),
        .target(name: "FuzzContainers", dependencies: [.product(name: "C2PA", package: rootIdentity)]),
    ] + harnesses.map { h in
        .executableTarget(name: "fuzz-\(h.name)",
                          dependencies: ["FuzzSupport"] + (containerHarnesses.contains(h.name) ? ["FuzzContainers"] : [])
                              + h.modules.map { .product(name: $0, package: rootIdentity) })
    },
    swiftLanguageModes: [.v6]
)

import CLI
import Foundation

/// A small program with the shapes the real ones have: a subcommand with choice-valued and
/// free options, one with a positional word list and a file, one with a variadic path list.
enum Query: CommandSpec {
    static let name = "query"
    static let abstract = "List records by state and sidecar, with a rather long abstract that a narrow terminal has to wrap."
    static let discussion = """
    Filters combine with AND; a repeated filter means OR within that filter. This paragraph is
    written for a wide terminal and is reflowed to a narrow one.

      a preformatted line that is kept as it is when it fits
    """
    static let options = [
        OptionSpec("state", value: "state", help: "Integrity: intact, tampered, unsigned or malformed.",
                   completion: .choices(["intact", "tampered", "unsigned", "malformed"])),
        OptionSpec("sidecar", value: "state", help: "Sidecar state.", completion: .choices(["verified", "mismatch", "missing"])),
        OptionSpec("limit", value: "n", help: "At most N."),
        OptionSpec("out", short: "o", value: "dir", help: "Output directory.", completion: .directory),
        OptionSpec("count", help: "Count only."),
    ]
}

enum Trust: CommandSpec {
    static let name = "trust"
    static let abstract = "Add, list or remove anchors."
    static let arguments = [
        ArgumentSpec("action", help: "add, list or remove.", completion: .choices(["add", "list", "remove"])),
        ArgumentSpec("pem", help: "A PEM file.", optional: true, completion: .file),
    ]
}

enum Put: CommandSpec {
    static let name = "put"
    static let abstract = "Store files."
    static let arguments = [ArgumentSpec("file", help: "Files to store.", variadic: true, completion: .file)]
}

enum Synth: CommandSpec {
    static let name = "synth"
    static let abstract = "Write a dump."
    static let options = [OptionSpec("stills", value: "n", help: "Stills."), OptionSpec("faults", value: "list", help: "Faults.",
                                                                                       completion: .choices(["none", "all"]))]
    static let arguments = [ArgumentSpec("out", help: "Where.", completion: .directory)]
}

let json = OptionSpec("json", help: "Print JSON Lines on stdout.")

/// `tool <subcommand>` with the three commands above.
var tool: Program { Program(name: "tool", version: "9.8.7", overview: "A tool for the tests.", commands: [Query.self, Trust.self, Put.self],
                   manualSections: [("Exit status", "0 success, 2 usage.")],
                   options: { $0.options + [json, Program.help] }) }

/// `synth OUT [options]`, a program without subcommands.
var synth: Program { Program(name: "synth", version: "1.2.3", main: Synth.self) }

/// Runs `executable` with `arguments`, stdin empty; (status, stdout, stderr).
func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws -> (Int32, String, String) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: executable)
    p.arguments = arguments
    if let environment { p.environment = environment }
    let out = Pipe(), err = Pipe()
    p.standardOutput = out
    p.standardError = err
    p.standardInput = FileHandle.nullDevice
    try p.run()
    let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
}

/// A scratch directory removed when released.
final class ScratchDirectory {
    let path = NSTemporaryDirectory() + "cli-test-" + UUID().uuidString
    init() { try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
    deinit { try? FileManager.default.removeItem(atPath: path) }
    func write(_ name: String, _ text: String) -> String {
        let p = path + "/" + name
        _ = FileManager.default.createFile(atPath: p, contents: Data(text.utf8))
        return p
    }
}

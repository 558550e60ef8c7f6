import FuzzDriver

/// The harness body of the running process (one per executable, set once before the driver runs).
nonisolated(unsafe) private var harness: (([UInt8]) -> Void)?

/// Runs libFuzzer over `body`: each input arrives as a byte array. Every libFuzzer flag works
/// (`-runs=`, `-max_total_time=`, corpus directories, a crash file to replay). `body` must not
/// crash, hang or leak on any input: a thrown, typed error is the expected answer to bad bytes.
public func fuzzMain(_ body: @escaping ([UInt8]) -> Void) -> Never {
    harness = body
    let rc = fuzz_run(CommandLine.argc, CommandLine.unsafeArgv) { data, size in
        let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
        harness?(bytes)
        return 0
    }
    exit(rc)
}

#if canImport(Glibc)
import Glibc
#endif

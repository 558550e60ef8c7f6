import Foundation

// The entry point only: everything testable lives in CLI/ and Commands/.
exit(CommandRunner.run(Array(CommandLine.arguments.dropFirst())).rawValue)

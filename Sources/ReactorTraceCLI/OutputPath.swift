import ArgumentParser

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Checks on the file a command is about to write.
enum OutputPath {
  /// Refuses, with exit code 2, an output that is one of the command's inputs: writing it
  /// would destroy the trace it was made from.
  static func checkNotInput(_ output: String, inputs: [String]) throws(ExitCode) {
    guard let target = resolved(output) else { return }
    for input in inputs where resolved(input) == target {
      throw CommandFailure.unusableInput(
        "refusing to overwrite the input '\(input)' with the output")
    }
  }

  /// The file's device and inode, or `nil` when it does not exist.
  private static func resolved(_ path: String) -> [UInt64]? {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    return [UInt64(status.st_dev), UInt64(status.st_ino)]
  }
}

import ArgumentParser
import ReactorTracing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where `-o` sends a command's output, by the README's "Outputs" rules: `-` is standard
/// output, any other path is written with ``AtomicFile`` (regular files replaced atomically,
/// devices and FIFOs written through), and an output that is one of the command's inputs is
/// refused before anything is written.
enum OutputFiles {
  /// The path that stands for standard output.
  static let standardOutput = "-"

  /// Exits with code 2 if any of `outputs` is the same file (device and inode) as one of
  /// `inputs`, following symbolic links.
  static func refuse(_ outputs: [String], ifAnyIs inputs: [String]) throws(ExitCode) {
    let inputIdentities = inputs.map { (path: $0, identity: identity(of: $0)) }
    for output in outputs {
      guard let identity = identity(of: output) else { continue }
      for input in inputIdentities where input.identity == identity {
        throw CommandFailure.unusableInput(
          "the output '\(output)' is the input '\(input.path)'; write to another file")
      }
    }
  }

  /// Writes every file, all or nothing, after checking that none is one of `inputs`.
  /// - Throws: Exit code 2 with one line on standard error.
  static func write(
    _ files: [(path: String, bytes: [UInt8])], inputs: [String]
  ) throws(ExitCode) {
    try refuse(files.map(\.path), ifAnyIs: inputs)
    if files.count == 1, files[0].path == standardOutput {
      guard writeToStandardOutput(files[0].bytes) else {
        throw CommandFailure.unusableInput(
          "cannot write to standard output: \(String(cString: strerror(errno)))")
      }
      return
    }
    do {
      try AtomicFile.write(files)
    } catch {
      throw CommandFailure.unusableInput(error.description)
    }
  }

  /// Device and inode of the file at `path` (standard output's for `-`), or `nil` if there
  /// is none.
  private static func identity(of path: String) -> [UInt64]? {
    var info = stat()
    let found = path == standardOutput ? fstat(STDOUT_FILENO, &info) : stat(path, &info)
    guard found == 0 else { return nil }
    return [UInt64(info.st_dev), UInt64(info.st_ino)]
  }

  private static func writeToStandardOutput(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = systemWrite(STDOUT_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          return false
        }
        offset += written
      }
      return true
    }
  }
}

private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  write(descriptor, bytes, count)
}

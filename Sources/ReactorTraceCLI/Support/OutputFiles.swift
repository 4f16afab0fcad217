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
  static func refuse(_ outputs: [String], ifAnyIs inputs: [String]) throws(CommandFailure) {
    let inputIdentities = inputs.map { (path: $0, identity: identity(of: $0)) }
    for output in outputs {
      guard let identity = identity(of: output) else { continue }
      for input in inputIdentities where input.identity == identity {
        throw CommandFailure.unusableInput(
          "the output '\(output)' is the input '\(input.path)'; write to another file")
      }
    }
  }

  /// Exits with code 2 if `path` names something other than a regular file (following
  /// symbolic links): outputs named after it, such as `NAME-1.svg` pages, need a file to be
  /// named after, not a device, FIFO or socket.
  static func refuseSpecialFile(_ path: String, for what: String) throws(CommandFailure) {
    var info = stat()
    guard stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG else { return }
    throw CommandFailure.unusableInput(
      "\(what) are written to files named after -o, and '\(path)' is not a regular file; "
        + "give -o a file name")
  }

  /// Writes one output, after checking that it is none of `inputs`.
  /// - Throws: Exit code 2 with one line on standard error.
  static func write(_ bytes: [UInt8], to path: String, inputs: [String]) throws(CommandFailure) {
    try refuse([path], ifAnyIs: inputs)
    if path == standardOutput {
      guard writeToStandardOutput(bytes) else {
        throw CommandFailure.unusableInput(
          "cannot write to standard output: \(String(cString: strerror(errno)))")
      }
      return
    }
    let batch = Batch(inputs: inputs)
    try batch.add(bytes, to: path)
    try batch.commit()
  }

  /// Several outputs written all or nothing (`--page-size` pages), each checked against
  /// the inputs as it is added; what is not committed is removed.
  final class Batch {
    private let files = AtomicFileBatch()
    private let inputs: [String]

    init(inputs: [String]) {
      self.inputs = inputs
    }

    /// Writes `bytes` to the temporary file of `path`.
    func add(_ bytes: [UInt8], to path: String) throws(CommandFailure) {
      try refuse([path], ifAnyIs: inputs)
      do {
        try files.add(bytes, to: path)
      } catch {
        throw CommandFailure.unusableInput(error.description)
      }
    }

    /// Puts every file in place.
    func commit() throws(CommandFailure) {
      do {
        try files.commit()
      } catch {
        throw CommandFailure.unusableInput(error.description)
      }
    }
  }

  /// One output written piece by piece as it is made (``AtomicFileStream``), for outputs too
  /// large to hold: standard output gets each piece at once.
  ///
  /// With `isHeldUntilCommit` (for `--strict`, whose warnings are known only at the end), a
  /// destination that cannot be replaced atomically (standard output, a device, a FIFO) gets
  /// nothing before ``commit()``: the pieces are kept in memory until then. A regular file
  /// is written to its temporary file as usual, which an uncommitted stream removes.
  final class Stream {
    private enum Sink {
      case file(AtomicFileStream)
      case standardOutput
      case held([UInt8])
    }

    private var sink: Sink
    private let path: String
    private let inputs: [String]
    private var failure: CommandFailure?

    /// Checks `path` against `inputs` and opens it.
    /// - Throws: Exit code 2 with one line, before anything is written.
    init(path: String, inputs: [String], isHeldUntilCommit: Bool) throws(CommandFailure) {
      try refuse([path], ifAnyIs: inputs)
      self.path = path
      self.inputs = inputs
      var info = stat()
      let isRegular =
        path != standardOutput && (stat(path, &info) != 0 || info.st_mode & S_IFMT == S_IFREG)
      if isHeldUntilCommit && !isRegular {
        sink = .held([])
      } else if path == standardOutput {
        sink = .standardOutput
      } else {
        do {
          sink = .file(try AtomicFileStream(path: path))
        } catch {
          throw CommandFailure.unusableInput(error.description)
        }
      }
    }

    /// Writes the next piece; a failure is reported by ``commit()``.
    func write(_ bytes: [UInt8]) {
      switch sink {
      case .file(let file): file.write(bytes)
      case .standardOutput:
        if failure == nil, !writeToStandardOutput(bytes) {
          failure = CommandFailure.unusableInput(
            "cannot write to standard output: \(String(cString: strerror(errno)))")
        }
      case .held(var held):
        sink = .standardOutput
        held.append(contentsOf: bytes)
        sink = .held(held)
      }
    }

    /// Puts the output in place.
    /// - Throws: Exit code 2 with one line for the first failure.
    func commit() throws(CommandFailure) {
      if let failure { throw failure }
      switch sink {
      case .file(let file):
        do {
          try file.commit()
        } catch {
          throw CommandFailure.unusableInput(error.description)
        }
      case .standardOutput: break
      case .held(let bytes): try OutputFiles.write(bytes, to: path, inputs: inputs)
      }
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
    bytes.withUnsafeBytes { POSIXIO.write($0, to: STDOUT_FILENO) }
  }
}

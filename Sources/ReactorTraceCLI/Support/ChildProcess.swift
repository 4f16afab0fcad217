import Foundation

/// Another process run to its end, its standard output and error collected: for work that a
/// crash must not take down with this process (a corpus replay's batches).
struct ChildProcess: Sendable {
  /// How the process ended and what it wrote.
  struct Result: Sendable {
    /// Its exit code, or the signal that killed it.
    var status: Int32
    /// Whether a signal killed it.
    var isSignaled: Bool
    /// Its standard output.
    var output: [UInt8]
    /// Its standard error.
    var error: [UInt8]
  }

  /// The executable.
  var executable: String
  /// Its arguments.
  var arguments: [String]

  /// Runs the process on a thread of its own (never blocking the caller's executor) and
  /// returns when it has ended and both its outputs are read.
  func run() async -> Result {
    await withCheckedContinuation { continuation in
      DispatchQueue.global().async {
        continuation.resume(returning: runBlocking())
      }
    }
  }

  private func runBlocking() -> Result {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      return Result(
        status: 2, isSignaled: false, output: [],
        error: Array("reactor-trace: cannot run \(executable): \(error)\n".utf8))
    }
    // Standard error is read on another thread, so that neither pipe fills up and stalls
    // the process.
    let errorBytes = LockedBytes()
    let group = DispatchGroup()
    DispatchQueue.global().async(group: group) {
      errorBytes.set([UInt8](error.fileHandleForReading.readDataToEndOfFile()))
    }
    let outputBytes = [UInt8](output.fileHandleForReading.readDataToEndOfFile())
    group.wait()
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus, isSignaled: process.terminationReason == .uncaughtSignal,
      output: outputBytes, error: errorBytes.get())
  }
}

/// Bytes handed from one thread to another; every access holds its lock.
private final class LockedBytes: @unchecked Sendable {
  private let lock = NSLock()
  private var bytes: [UInt8] = []

  func set(_ value: [UInt8]) { lock.withLock { bytes = value } }
  func get() -> [UInt8] { lock.withLock { bytes } }
}

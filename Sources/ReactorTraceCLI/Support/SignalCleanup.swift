import Dispatch
import ReactorTracing
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Ends the process on SIGINT or SIGTERM without leaving temporary files behind: removes
/// the ones ``AtomicFile`` is writing, then exits with the shell's code for the signal
/// (130, 143).
enum SignalCleanup {
  /// Whether the command's output is in place: a signal after it ends the process with 0.
  private static let isOutputComplete = Mutex(false)

  /// Says that the command's output has been put in place (renamed over its destination),
  /// so that SIGINT or SIGTERM from now on ends the process with exit code 0: what was asked
  /// for is done, and a script must not take it for a failure.
  static func outputIsComplete() {
    isOutputComplete.withLock { $0 = true }
  }

  /// Takes SIGINT and SIGTERM on a dispatch queue from now on.
  static func install() {
    _ = sources
  }

  /// The sources, created once; kept so that they keep delivering.
  ///
  /// `nonisolated(unsafe)`: Dispatch's sources are not marked `Sendable`, but this array is
  /// never changed and its sources are only kept alive, never used again.
  nonisolated(unsafe) private static let sources = [SIGINT, SIGTERM].map(source(for:))

  /// A started source for `signalNumber`, which no longer ends the process by itself.
  private static func source(for signalNumber: Int32) -> any DispatchSourceSignal {
    signal(signalNumber, SIG_IGN)
    let source = DispatchSource.makeSignalSource(
      signal: signalNumber, queue: .global(qos: .userInitiated))
    source.setEventHandler {
      AtomicFile.removeTemporaryFiles()
      _exit(isOutputComplete.withLock { $0 } ? 0 : 128 + signalNumber)
    }
    source.resume()
    return source
  }
}

import Dispatch
import ReactorTracing

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
      _exit(128 + signalNumber)
    }
    source.resume()
    return source
  }
}

import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The threads recorders start: a writer, a live sender.
package enum RecorderThread {
  /// Starts a thread that runs `body`, named `name` where the system shows thread names
  /// (debuggers, profilers, `/proc/PID/task/TID/comm`).
  ///
  /// Foundation's `Thread.name` gives no name to the system thread on Linux, so the thread
  /// names itself (through `/proc/thread-self/comm`); Linux keeps at most 15 bytes of a name.
  /// - Parameters:
  ///   - name: At most 15 bytes, such as `trace writer`.
  ///   - body: What the thread runs.
  package static func start(named name: String, _ body: @escaping @Sendable () -> Void) {
    precondition(name.utf8.count <= 15, "a thread's name has at most 15 bytes")
    let thread = Thread {
      #if canImport(Darwin)
      _ = pthread_setname_np(name)
      #else
      // Glibc's module does not bring `pthread_setname_np`; Linux takes the name here too.
      let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
      if descriptor >= 0 {
        _ = Array(name.utf8).withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
      }
      #endif
      body()
    }
    thread.name = name
    thread.start()
  }
}

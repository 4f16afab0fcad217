#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The CPU time this process's threads have used, as Linux counts it per thread in
/// `/proc/self/task/TID/schedstat` (nanoseconds on a CPU): what `--recorder none` and
/// `--file` report, so that what recording costs the app can be given in its units (issue
/// 44: the app's time per 16.7 ms frame, the writer thread's share of a core).
///
/// The app's threads are all but the recorder's: on Linux the main actor's work does not run
/// on the process's first thread but on dispatch's, which drain the main queue.
struct ThreadCPU: Sendable {
  /// Seconds the app's threads ran: every thread but the recorder's.
  var app: Double
  /// Seconds the recorder's threads (named `trace …`: `trace writer`, `trace sender`) ran.
  var recorder: Double

  /// The times now; `nil` where `/proc` does not give them (not Linux).
  static func now() -> ThreadCPU? {
    guard let directory = opendir("/proc/self/task") else { return nil }
    defer { closedir(directory) }
    var times = ThreadCPU(app: 0, recorder: 0)
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
      }
      guard Int32(name) != nil else { continue }
      let base = "/proc/self/task/\(name)/"
      guard
        let onCPU = contents(base + "schedstat")?.split(separator: " ").first
          .flatMap({ UInt64($0) })
      else { continue }
      let seconds = Double(onCPU) / 1e9
      if contents(base + "comm")?.hasPrefix("trace ") == true {
        times.recorder += seconds
      } else {
        times.app += seconds
      }
    }
    return times
  }

  /// A small file's text (at most 4 KiB), or `nil`.
  private static func contents(_ path: String) -> String? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    guard count > 0 else { return nil }
    return String(decoding: buffer[..<count], as: UTF8.self)
  }
}

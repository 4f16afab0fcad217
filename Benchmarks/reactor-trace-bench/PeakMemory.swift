#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The peak resident memory of the current process.
///
/// On Linux, a child's `ru_maxrss` from `wait4` also counts the memory of the process that
/// spawned it (`posix_spawn` runs the child in the parent's address space until `exec`, and
/// the kernel keeps the larger of the two), so children report their own peak instead:
/// `VmHWM` from `/proc/self/status`, which starts afresh at `exec`.
enum PeakMemory {
  /// The current process's peak resident set size in bytes, or `nil` where `/proc` does not
  /// tell it.
  static var currentProcessBytes: Int? {
    guard let file = fopen("/proc/self/status", "r") else { return nil }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, Int32(line.count), file) != nil {
      let text = String(
        decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      guard text.hasPrefix("VmHWM:") else { continue }
      let kibibytes = text.dropFirst("VmHWM:".count).split(whereSeparator: \.isWhitespace).first
        .flatMap { Int($0) }
      return kibibytes.map { $0 * 1024 }
    }
    return nil
  }
}

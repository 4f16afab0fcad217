import ReactorTracing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where lines start in a file, found by counting newlines forward, in step with a reader of
/// the same file: the index asks for ever later lines, so the file is read once.
final class LineStarts {
  private let descriptor: Int32
  private var buffer = [UInt8](repeating: 0, count: 1 << 20)
  private var bufferStart = 0
  private var bufferCount = 0
  private var scanned = 0
  /// Newlines seen in the bytes before `scanned`.
  private var newlines = 0
  /// The start of line `newlines + 1`.
  private var lastStart = 0

  init?(path: String) {
    descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return nil }
  }

  deinit { close(descriptor) }

  /// The byte offset where line `line` (from 1) starts, or the file's size when it has fewer.
  func start(ofLine line: Int) -> Int {
    while newlines < line - 1 {
      if scanned >= bufferStart + bufferCount {
        bufferStart = scanned
        bufferCount = max(0, buffer.withUnsafeMutableBytes { POSIXIO.read(descriptor, into: $0) })
        if bufferCount == 0 { return scanned }
      }
      let found = buffer.withUnsafeBytes { bytes -> Int? in
        let base = bytes.baseAddress! + (scanned - bufferStart)
        let count = bufferStart + bufferCount - scanned
        guard let hit = memchr(base, 0x0A, count) else { return nil }
        return UnsafeRawPointer(hit) - UnsafeRawPointer(bytes.baseAddress!)
      }
      if let found {
        scanned = bufferStart + found + 1
        newlines += 1
        lastStart = scanned
      } else {
        scanned = bufferStart + bufferCount
      }
    }
    return lastStart
  }
}

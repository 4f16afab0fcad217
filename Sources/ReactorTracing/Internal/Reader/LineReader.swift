#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Splits a file or a byte array into lines, reading in fixed-size chunks so memory stays
/// bounded by the longest allowed line, never by the file.
final class LineReader {
  /// A line found in the buffer; valid until the next call to ``next()``.
  struct Line {
    let range: Range<Int>
    /// Whether a newline ended the line (a last line without one may be torn).
    let isTerminated: Bool
  }

  enum Failure: Error {
    case tooLong
    case readFailed(String)
  }

  private static let chunkSize = 1 << 20

  private let descriptor: Int32
  let maximumLineLength: Int
  // Touched only by the reader's own methods, one at a time: no dynamic exclusivity checks.
  @exclusivity(unchecked) private(set) var buffer: [UInt8]
  @exclusivity(unchecked) private var start = 0
  @exclusivity(unchecked) private var end = 0
  @exclusivity(unchecked) private var scanned = 0
  @exclusivity(unchecked) private var isAtEnd = false

  /// Lines of the file at `path`, or `nil` with `errno` set when it cannot be opened.
  ///
  /// Opening never waits: a named pipe with no writer reads as an empty file (issue 40: it
  /// hung a command given a folder holding one) and one with a writer reads as it writes.
  init?(path: String, maximumLineLength: Int) {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else { return nil }
    var status = stat()
    if fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
      close(descriptor)
      errno = EISDIR
      return nil
    }
    // Reads wait for a pipe's writer as usual.
    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
    self.descriptor = descriptor
    self.maximumLineLength = maximumLineLength
    buffer = [UInt8](repeating: 0, count: Self.chunkSize)
  }

  /// Lines read from an open file from its current offset; the reader closes `descriptor`.
  init(descriptor: Int32, maximumLineLength: Int) {
    self.descriptor = descriptor
    self.maximumLineLength = maximumLineLength
    buffer = [UInt8](repeating: 0, count: Self.chunkSize)
  }

  /// Lines of `bytes`.
  init(bytes: [UInt8], maximumLineLength: Int) {
    descriptor = -1
    self.maximumLineLength = maximumLineLength
    buffer = bytes
    end = bytes.count
    isAtEnd = true
  }

  deinit {
    if descriptor >= 0 { close(descriptor) }
  }

  /// The next line, or `nil` at the end.
  func next() throws(Failure) -> Line? {
    while true {
      let newline: Int? = buffer.withUnsafeBytes { bytes in
        guard scanned < end,
          let found = memchr(bytes.baseAddress! + scanned, 0x0A, end - scanned)
        else { return nil }
        return bytes.baseAddress!.distance(to: UnsafeRawPointer(found))
      }
      if let newline {
        guard newline - start <= maximumLineLength else { throw .tooLong }
        let line = Line(range: start..<newline, isTerminated: true)
        start = newline + 1
        scanned = start
        return line
      }
      scanned = end
      if end - start > maximumLineLength { throw .tooLong }
      if isAtEnd {
        guard start < end else { return nil }
        let line = Line(range: start..<end, isTerminated: false)
        start = end
        return line
      }
      try fill()
    }
  }

  /// Moves the unfinished line to the front and reads another chunk after it.
  private func fill() throws(Failure) {
    if start > 0 {
      let count = end - start
      buffer.withUnsafeMutableBytes { bytes in
        _ = memmove(bytes.baseAddress!, bytes.baseAddress! + start, count)
      }
      scanned -= start
      end = count
      start = 0
    }
    if buffer.count - end < Self.chunkSize / 2 {
      // Double, but never past what the longest allowed line needs.
      let ceiling = maximumLineLength + 2 * Self.chunkSize
      let growth = max(Self.chunkSize, min(buffer.count, ceiling - buffer.count))
      buffer += [UInt8](repeating: 0, count: growth)
    }
    let count = buffer.withUnsafeMutableBytes { bytes in
      POSIXIO.read(descriptor, into: UnsafeMutableRawBufferPointer(rebasing: bytes[end...]))
    }
    if count < 0 { throw .readFailed(String(cString: strerror(errno))) }
    if count == 0 { isAtEnd = true }
    end += count
  }
}

import ReactorTracing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Bytes appended once and read back at offsets, in an unnamed temporary file (`tmpfile()`:
/// the system removes it when the server ends), so that an index does not grow memory with
/// the trace.
final class IndexFile {
  private let file: UnsafeMutablePointer<FILE>
  private let descriptor: Int32
  private var pending: [UInt8] = []
  private var written = 0

  /// The bytes appended so far.
  var size: Int { written + pending.count }

  /// A new empty file.
  /// - Throws: ``QueryError/unreadableTrace(path:reason:)`` naming `path` when no temporary
  ///   file can be made.
  init(for path: String) throws(QueryError) {
    guard let file = tmpfile() else {
      throw .unreadableTrace(
        path: path, reason: "no temporary file for its index: \(String(cString: strerror(errno)))")
    }
    self.file = file
    descriptor = fileno(file)
    pending.reserveCapacity(1 << 16)
  }

  deinit { fclose(file) }

  /// Appends bytes; returns the offset they start at.
  @discardableResult
  func append(_ bytes: some Collection<UInt8>) throws(QueryError) -> Int {
    let offset = size
    pending.append(contentsOf: bytes)
    if pending.count >= 1 << 16 { try flush() }
    return offset
  }

  /// Appends a value's bytes as they are in memory.
  @discardableResult
  func append<T: BitwiseCopyable>(raw value: T) throws(QueryError) -> Int {
    try withUnsafeBytes(of: value) { bytes throws(QueryError) in try append(bytes) }
  }

  /// Writes what is pending.
  func flush() throws(QueryError) {
    guard !pending.isEmpty else { return }
    let ok = pending.withUnsafeBytes { POSIXIO.write($0, to: descriptor, at: written) }
    guard ok else {
      throw .unreadableTrace(
        path: "(index)", reason: "cannot write its index: \(String(cString: strerror(errno)))")
    }
    written += pending.count
    pending.removeAll(keepingCapacity: true)
  }

  /// `count` bytes from `offset` (fewer at the end).
  func read(at offset: Int, count: Int) -> [UInt8] {
    guard count > 0, offset >= 0, offset < size else { return [] }
    let wanted = min(count, size - offset)
    if offset >= written {
      return Array(pending[(offset - written)..<(offset - written + wanted)])
    }
    var bytes = [UInt8](repeating: 0, count: wanted)
    var done = 0
    while done < wanted {
      let count = bytes.withUnsafeMutableBytes { buffer in
        POSIXIO.read(
          descriptor, into: UnsafeMutableRawBufferPointer(rebasing: buffer[done...]),
          at: offset + done)
      }
      if count <= 0 { break }
      done += count
    }
    if done < wanted, offset + done >= written {
      // The rest is still pending.
      let start = offset + done - written
      bytes.replaceSubrange(done..<wanted, with: pending[start..<(start + wanted - done)])
      done = wanted
    }
    return Array(bytes[..<done])
  }
}

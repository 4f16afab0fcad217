#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Bytes collected for later that move to an unnamed temporary file once they pass
/// ``memoryLimit``, so that a part of the page written at the end (the snapshots, the diagram's
/// nodes) does not grow memory with the trace.
///
/// The file is made with `tmpfile()`: it has no name, and the system removes it when it is
/// closed or the process ends. When no temporary file can be made the bytes stay in memory.
final class SpillBuffer {
  /// How many bytes stay in memory before they move to the file.
  static let memoryLimit = 1 << 20

  private var bytes: [UInt8] = []
  private var file: UnsafeMutablePointer<FILE>?
  private var isFileUnusable = false
  private var isBroken = false

  /// Whether nothing was appended.
  private(set) var isEmpty = true

  deinit {
    if let file { fclose(file) }
  }

  /// Appends `bytes`.
  func append(_ more: some Collection<UInt8>) {
    isEmpty = isEmpty && more.isEmpty
    bytes.append(contentsOf: more)
    if bytes.count >= Self.memoryLimit { spill() }
  }

  /// Appends the UTF-8 of `text`.
  func append(_ text: String) {
    append(text.utf8)
  }

  /// Gives every byte appended, in order and in pieces, to `output`.
  /// - Returns: `false` when the temporary file could not be read back whole.
  func drain(to output: ([UInt8]) -> Void) -> Bool {
    var isWhole = true
    if let file {
      if fflush(file) != 0 { isWhole = false }
      rewind(file)
      var piece = [UInt8](repeating: 0, count: Self.memoryLimit)
      while true {
        let count = piece.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
        if count > 0 { output(Array(piece[..<count])) }
        if count < piece.count {
          if ferror(file) != 0 { isWhole = false }
          break
        }
      }
    }
    if !bytes.isEmpty { output(bytes) }
    return isWhole && !isBroken
  }

  private func spill() {
    guard !isFileUnusable else { return }
    if file == nil { file = tmpfile() }
    guard let file else {
      isFileUnusable = true
      return
    }
    let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
    guard written == bytes.count else {
      // Part of the bytes may be in the file: what is read back would not be whole.
      isFileUnusable = true
      isBroken = true
      return
    }
    bytes.removeAll(keepingCapacity: true)
  }
}

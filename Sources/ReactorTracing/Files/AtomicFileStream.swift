#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One file written piece by piece and put in place atomically at the end, for outputs too
/// large to hold in memory.
///
/// Destinations follow ``AtomicFile``'s rules: a regular file (or nothing yet) is written to a
/// temporary file beside it, which ``commit()`` flushes and renames over it, keeping the mode
/// and, as far as the process may, the owner and group of the file it replaces; a character
/// device, FIFO or socket is written through as the pieces come. A stream that is not
/// committed removes its temporary file when it goes away.
///
/// Writes collect in a buffer of ``bufferSize`` bytes. A write that fails is remembered, later
/// writes do nothing, and ``commit()`` throws the failure, so that a producer can write without
/// checking each piece.
///
/// ```swift
/// let file = try AtomicFileStream(path: "big.json")
/// for chunk in chunks { file.write(chunk) }
/// try file.commit()
/// ```
public final class AtomicFileStream {
  /// Where the pieces go.
  private enum Target {
    /// A temporary file, renamed to `target` at commit.
    case temporary(path: String, temporaryPath: String, target: String)
    /// A device, FIFO or socket.
    case writtenThrough(path: String)
  }

  /// How many bytes collect before they are written.
  public static let bufferSize = 1 << 20

  private let target: Target
  private var file: POSIXFile
  private var buffer: [UInt8] = []
  private var failure: AtomicFileError?
  private var isDone = false

  /// Checks the destination and opens its temporary file (or the device).
  /// - Parameter path: The destination, absolute or relative to the working directory.
  /// - Throws: ``AtomicFileError`` when the destination is refused or cannot be opened.
  public init(path: String) throws(AtomicFileError) {
    switch try FileDestination(path) {
    case .writeThrough:
      guard let device = POSIXFile(writingThrough: path) else {
        throw .writeThroughFailed(path: path, code: POSIXFile.errorCode)
      }
      file = consume device
      target = .writtenThrough(path: path)
    case .replace(let destination):
      let temporaryPath = AtomicFileBatch.temporaryPath(for: destination)
      file = try AtomicFileBatch.createTemporaryFile(temporaryPath, for: destination, path: path)
      target = .temporary(path: path, temporaryPath: temporaryPath, target: destination)
    }
    buffer.reserveCapacity(Self.bufferSize)
  }

  deinit {
    if !isDone, case .temporary(_, let temporaryPath, _) = target {
      TemporaryFiles.remove(temporaryPath)
    }
  }

  /// Appends `bytes`; a failure is kept for ``commit()``.
  public func write(_ bytes: [UInt8]) {
    guard failure == nil, !isDone else { return }
    buffer.append(contentsOf: bytes)
    if buffer.count >= Self.bufferSize { flush() }
  }

  /// Appends the UTF-8 of `text`; a failure is kept for ``commit()``.
  public func write(_ text: String) {
    guard failure == nil, !isDone else { return }
    buffer.append(contentsOf: text.utf8)
    if buffer.count >= Self.bufferSize { flush() }
  }

  /// Writes what is buffered, flushes the file to disk and puts it in place.
  /// - Throws: ``AtomicFileError`` for the first write that failed, or the rename; the
  ///   destination is then as it was (a device keeps what was written through).
  public func commit() throws(AtomicFileError) {
    guard !isDone else { return }
    flush()
    defer { isDone = true }
    switch target {
    case .writtenThrough(let path):
      if let failure { throw failure }
      guard file.close() else {
        throw .writeThroughFailed(path: path, code: POSIXFile.errorCode)
      }
    case .temporary(let path, let temporaryPath, let destination):
      if failure == nil, !file.synchronize() || !file.close() {
        failure = .writeFailed(path: path, temporaryPath: temporaryPath, code: POSIXFile.errorCode)
      }
      if let failure {
        TemporaryFiles.remove(temporaryPath)
        throw failure
      }
      guard POSIXFile.rename(temporaryPath, to: destination) else {
        let code = POSIXFile.errorCode
        TemporaryFiles.remove(temporaryPath)
        throw .renameFailed(path: path, temporaryPath: temporaryPath, code: code)
      }
      TemporaryFiles.forget(temporaryPath)
    }
  }

  private func flush() {
    guard !buffer.isEmpty, failure == nil else { return }
    if !file.write(buffer) {
      switch target {
      case .writtenThrough(let path):
        failure = .writeThroughFailed(path: path, code: POSIXFile.errorCode)
      case .temporary(let path, let temporaryPath, _):
        failure = .writeFailed(path: path, temporaryPath: temporaryPath, code: POSIXFile.errorCode)
      }
    }
    buffer.removeAll(keepingCapacity: true)
  }
}

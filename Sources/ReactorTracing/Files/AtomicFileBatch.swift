/// Several files written all or nothing, one at a time: each is written to its temporary
/// file as it is added, and none replaces its destination before ``commit()``.
///
/// Destinations follow ``AtomicFile``'s rules. A batch that is not committed removes its
/// temporary files when it goes away, leaving every destination as it was.
///
/// ```swift
/// let batch = AtomicFileBatch()
/// for (index, page) in pages.enumerated() {
///   try batch.add(render(page), to: "out-\(index + 1).svg")
/// }
/// try batch.commit()
/// ```
public final class AtomicFileBatch {
  /// A file added and not yet in place.
  private enum Pending {
    /// Written to `temporaryPath`, to be renamed to `target`.
    case renamed(path: String, temporaryPath: String, target: String)
    /// A device or FIFO, written at commit.
    case writtenThrough(path: String, bytes: [UInt8])
  }

  private var pending: [Pending] = []

  /// Creates an empty batch.
  public init() {}

  deinit {
    for case .renamed(_, let temporaryPath, _) in pending {
      TemporaryFiles.remove(temporaryPath)
    }
  }

  /// Checks the destination and writes `bytes` to its temporary file (flushed to disk); a
  /// device or FIFO keeps the bytes until ``commit()``.
  /// - Parameters:
  ///   - bytes: The file's complete contents.
  ///   - path: Its destination.
  /// - Throws: ``AtomicFileError``; the files added before stay pending.
  public func add(_ bytes: [UInt8], to path: String) throws(AtomicFileError) {
    switch try FileDestination(path) {
    case .writeThrough:
      pending.append(.writtenThrough(path: path, bytes: bytes))
    case .replace(let target):
      let temporaryPath = try Self.writeTemporaryFile(bytes, for: target, path: path)
      pending.append(.renamed(path: path, temporaryPath: temporaryPath, target: target))
    }
  }

  /// Writes the devices and FIFOs, then renames every temporary file over its destination,
  /// in the order added.
  ///
  /// A failure writing a device leaves every regular destination as it was; only a rename
  /// failing (which the checks in ``add(_:to:)`` make unlikely) can leave the earlier ones
  /// replaced.
  /// - Throws: ``AtomicFileError`` for the first file that cannot be put in place.
  public func commit() throws(AtomicFileError) {
    for case .writtenThrough(let path, let bytes) in pending {
      guard var device = POSIXFile(writingThrough: path) else {
        throw .writeThroughFailed(path: path, code: POSIXFile.errorCode)
      }
      guard device.write(bytes), device.close() else {
        throw .writeThroughFailed(path: path, code: POSIXFile.errorCode)
      }
    }
    while !pending.isEmpty {
      let next = pending.removeFirst()
      guard case .renamed(let path, let temporaryPath, let target) = next else { continue }
      guard POSIXFile.rename(temporaryPath, to: target) else {
        let code = POSIXFile.errorCode
        TemporaryFiles.remove(temporaryPath)
        throw .renameFailed(path: path, temporaryPath: temporaryPath, code: code)
      }
      TemporaryFiles.forget(temporaryPath)
    }
  }

  /// Creates, writes, flushes and closes the temporary file for `target`.
  private static func writeTemporaryFile(
    _ bytes: [UInt8], for target: String, path: String
  ) throws(AtomicFileError) -> String {
    let temporaryPath = temporaryPath(for: target)
    var file = try createTemporaryFile(temporaryPath, for: target, path: path)
    guard file.write(bytes), file.synchronize(), file.close() else {
      let code = POSIXFile.errorCode
      TemporaryFiles.remove(temporaryPath)
      throw .writeFailed(path: path, temporaryPath: temporaryPath, code: code)
    }
    return temporaryPath
  }

  /// A new temporary file's path for `target`, in its directory, after removing the stale
  /// ones of ours there.
  static func temporaryPath(for target: String) -> String {
    let directory: Substring
    let name: Substring
    if let slash = target.lastIndex(of: "/") {
      directory = target[...slash]
      name = target[target.index(after: slash)...]
    } else {
      directory = ""
      name = Substring(target)
    }
    TemporaryFiles.removeStale(in: String(directory))
    return String(directory) + TemporaryFiles.name(for: String(name))
  }

  /// Creates the temporary file at `temporaryPath`, registered for removal and with the mode
  /// and owner of the file at `target` it is to replace.
  static func createTemporaryFile(
    _ temporaryPath: String, for target: String, path: String
  ) throws(AtomicFileError) -> POSIXFile {
    guard TemporaryFiles.register(temporaryPath) else {
      throw .creationFailed(path: path, temporaryPath: temporaryPath, code: ECANCELED)
    }
    guard let file = POSIXFile(creatingNew: temporaryPath) else {
      let code = POSIXFile.errorCode
      TemporaryFiles.forget(temporaryPath)
      throw .creationFailed(path: path, temporaryPath: temporaryPath, code: code)
    }
    guard file.takeModeAndOwner(of: target) else {
      let code = POSIXFile.errorCode
      TemporaryFiles.remove(temporaryPath)
      throw .writeFailed(path: path, temporaryPath: temporaryPath, code: code)
    }
    return file
  }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

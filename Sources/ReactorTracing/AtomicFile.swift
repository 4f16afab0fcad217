/// Writes whole files atomically: readers see either the previous file or the complete new
/// one, never a partial write.
///
/// The bytes go to a new temporary file in the destination's directory, which is flushed to
/// disk and then renamed over the destination. On any failure the temporary file is removed.
/// What a path names decides what happens:
///
/// - a regular file, or nothing yet, is replaced atomically as above;
/// - a symbolic link keeps pointing where it did: the file it leads to is replaced (or
///   created);
/// - a character device, FIFO or socket (`/dev/null`, `/dev/stdout`, a pipe) is written
///   through, never renamed over;
/// - a directory or a block device is refused.
///
/// ```swift
/// try AtomicFile.write(svg, to: "out/trace.svg")
/// ```
public enum AtomicFile {
  /// Writes `bytes` to the file at `path`, replacing it atomically if it exists.
  ///
  /// The new file gets the default permissions for new files (`0666` minus the umask).
  ///
  /// - Parameters:
  ///   - bytes: The complete new contents.
  ///   - path: The destination, absolute or relative to the working directory.
  /// - Throws: ``AtomicFileError`` naming the step that failed and the system's reason.
  public static func write(_ bytes: [UInt8], to path: String) throws(AtomicFileError) {
    try write([(path: path, bytes: bytes)])
  }

  /// Writes several files all or nothing: every destination is checked and every temporary
  /// file written and flushed before the first destination changes.
  ///
  /// Devices and FIFOs are written next, then the temporary files are renamed in order. A
  /// failure before the renames leaves every destination as it was; only a rename itself
  /// failing (which the checks make unlikely) can leave the earlier ones replaced.
  /// - Parameter files: The destinations and their complete new contents.
  /// - Throws: ``AtomicFileError`` for the first file that cannot be written.
  public static func write(_ files: [(path: String, bytes: [UInt8])]) throws(AtomicFileError) {
    var destinations: [FileDestination] = []
    for file in files { destinations.append(try FileDestination(file.path)) }

    var temporaryPaths: [String?] = []
    defer { for case let path? in temporaryPaths { TemporaryFiles.remove(path) } }
    for (destination, file) in zip(destinations, files) {
      guard case .replace(let target) = destination else {
        temporaryPaths.append(nil)
        continue
      }
      temporaryPaths.append(try writeTemporaryFile(file.bytes, for: target, path: file.path))
    }
    for (destination, file) in zip(destinations, files) {
      guard case .writeThrough = destination else { continue }
      guard var device = POSIXFile(writingThrough: file.path) else {
        throw .writeThroughFailed(path: file.path, code: POSIXFile.errorCode)
      }
      guard device.write(file.bytes), device.close() else {
        throw .writeThroughFailed(path: file.path, code: POSIXFile.errorCode)
      }
    }
    for index in files.indices {
      guard case .replace(let target) = destinations[index],
        let temporaryPath = temporaryPaths[index]
      else { continue }
      guard POSIXFile.rename(temporaryPath, to: target) else {
        throw .renameFailed(
          path: files[index].path, temporaryPath: temporaryPath, code: POSIXFile.errorCode)
      }
      TemporaryFiles.forget(temporaryPath)
      temporaryPaths[index] = nil
    }
  }

  /// Removes every temporary file that a write in progress has created, and makes writes
  /// that have not created theirs yet fail: for a process about to exit on a signal.
  ///
  /// Safe to call from any thread (not from a signal handler itself: take the signal on a
  /// thread, as `DispatchSource.makeSignalSource` does).
  public static func removeTemporaryFiles() {
    TemporaryFiles.removeAll()
  }

  /// Creates, writes, flushes and closes the temporary file for `target`.
  private static func writeTemporaryFile(
    _ bytes: [UInt8], for target: String, path: String
  ) throws(AtomicFileError) -> String {
    let directory: Substring
    let name: Substring
    if let slash = target.lastIndex(of: "/") {
      directory = target[...slash]
      name = target[target.index(after: slash)...]
    } else {
      directory = ""
      name = Substring(target)
    }
    let suffix = String(UInt64.random(in: .min ... .max), radix: 16)
    let temporaryPath = String(directory + "." + name + "." + suffix + ".tmp")
    guard TemporaryFiles.register(temporaryPath) else {
      throw .creationFailed(path: path, temporaryPath: temporaryPath, code: ECANCELED)
    }
    guard var file = POSIXFile(creatingNew: temporaryPath) else {
      let code = POSIXFile.errorCode
      TemporaryFiles.forget(temporaryPath)
      throw .creationFailed(path: path, temporaryPath: temporaryPath, code: code)
    }
    guard file.write(bytes), file.synchronize(), file.close() else {
      let code = POSIXFile.errorCode
      TemporaryFiles.remove(temporaryPath)
      throw .writeFailed(path: path, temporaryPath: temporaryPath, code: code)
    }
    return temporaryPath
  }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

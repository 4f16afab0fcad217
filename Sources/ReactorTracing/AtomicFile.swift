/// Writes whole files atomically: readers see either the previous file or the complete new
/// one, never a partial write.
///
/// The bytes go to a new temporary file in the destination's directory, which is flushed to
/// disk and then renamed over the destination. On any failure the temporary file is removed.
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
    let directory: Substring
    let name: Substring
    if let slash = path.lastIndex(of: "/") {
      directory = path[...slash]
      name = path[path.index(after: slash)...]
    } else {
      directory = ""
      name = Substring(path)
    }
    guard !name.isEmpty else { throw .invalidPath(path) }

    let suffix = String(UInt64.random(in: .min ... .max), radix: 16)
    let temporaryPath = directory + "." + name + "." + suffix + ".tmp"
    guard var file = POSIXFile(creatingNew: temporaryPath) else {
      throw .creationFailed(path: path, temporaryPath: temporaryPath, code: POSIXFile.errorCode)
    }
    do throws(AtomicFileError) {
      guard file.write(bytes), file.synchronize(), file.close() else {
        throw .writeFailed(path: path, temporaryPath: temporaryPath, code: POSIXFile.errorCode)
      }
      guard POSIXFile.rename(temporaryPath, to: path) else {
        throw .renameFailed(path: path, temporaryPath: temporaryPath, code: POSIXFile.errorCode)
      }
    } catch {
      _ = file.close()
      POSIXFile.remove(temporaryPath)
      throw error
    }
  }
}

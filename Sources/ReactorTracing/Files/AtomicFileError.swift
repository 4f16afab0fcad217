#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A failure to write a file with ``AtomicFile``; the destination is left untouched and no
/// temporary file is left behind.
public enum AtomicFileError: Error, Sendable, Hashable {
  /// The path names no file: it is empty or ends in a slash.
  case invalidPath(String)

  /// The path names a directory or a block device, which are never replaced.
  case notAFile(path: String, kind: String)

  /// The temporary file next to the destination could not be created.
  case creationFailed(path: String, temporaryPath: String, code: Int32)

  /// Writing, flushing or closing the temporary file failed.
  case writeFailed(path: String, temporaryPath: String, code: Int32)

  /// The temporary file could not be renamed to the destination.
  case renameFailed(path: String, temporaryPath: String, code: Int32)

  /// Opening or writing to a character device, FIFO or socket failed (`/dev/full`: no
  /// space left on device).
  case writeThroughFailed(path: String, code: Int32)
}

extension AtomicFileError: CustomStringConvertible {
  /// A one-line explanation with the system's error message.
  public var description: String {
    switch self {
    case .invalidPath(let path):
      "Cannot write '\(path)': the path does not name a file"
    case .notAFile(let path, let kind):
      "Cannot write '\(path)': it is \(kind), not a file"
    case .writeThroughFailed(let path, let code):
      "Cannot write '\(path)': \(Self.reason(code))"
    case .creationFailed(let path, let temporaryPath, let code):
      "Cannot write '\(path)': creating '\(temporaryPath)' failed: \(Self.reason(code))"
    case .writeFailed(let path, let temporaryPath, let code):
      "Cannot write '\(path)': writing '\(temporaryPath)' failed: \(Self.reason(code))"
    case .renameFailed(let path, let temporaryPath, let code):
      "Cannot write '\(path)': renaming '\(temporaryPath)' failed: \(Self.reason(code))"
    }
  }

  private static func reason(_ code: Int32) -> String {
    String(cString: strerror(code)) + " (errno \(code))"
  }
}

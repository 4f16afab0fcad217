#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The directory an agent may read traces from: every path it gives is taken relative to it,
/// and one that leads outside (through `..`, an absolute path or a symbolic link) is refused
/// before a byte of the file is read.
public struct TraceRoot: Sendable, Hashable {
  /// The directory, as `realpath` resolves it (no symbolic link, no `..`).
  public let directory: String

  /// The root at `path`.
  /// - Parameter path: A directory.
  /// - Throws: ``QueryError/refusedPath(path:reason:)`` when it is not a directory.
  public init(path: String) throws(QueryError) {
    guard let resolved = Self.realPath(path) else {
      throw .refusedPath(path: path, reason: Self.systemError())
    }
    var status = stat()
    guard stat(resolved, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
      throw .refusedPath(path: path, reason: "the root is not a directory")
    }
    directory = resolved
  }

  /// The file a relative path names inside the root, resolved.
  /// - Parameter relative: A path relative to the root (an absolute path inside it is
  ///   accepted too).
  /// - Returns: The file's resolved path.
  /// - Throws: ``QueryError/refusedPath(path:reason:)`` for a path outside the root, one
  ///   that names no file, or a file that is not a regular file.
  public func resolve(_ relative: String) throws(QueryError) -> String {
    guard !relative.isEmpty else {
      throw .refusedPath(path: relative, reason: "the path is empty")
    }
    guard !relative.utf8.contains(0), relative.utf8.count < Int(PATH_MAX) else {
      throw .refusedPath(
        path: String(relative.prefix(200)), reason: "not a usable path (a NUL byte, or too long)")
    }
    let joined = relative.hasPrefix("/") ? relative : directory + "/" + relative
    guard let resolved = Self.realPath(joined) else {
      throw .refusedPath(path: relative, reason: Self.systemError())
    }
    let prefix = directory == "/" ? "/" : directory + "/"
    guard resolved.hasPrefix(prefix) else {
      throw .refusedPath(
        path: relative, reason: "it is outside the root the server was started with")
    }
    var status = stat()
    guard stat(resolved, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
      throw .refusedPath(path: relative, reason: "not a regular file")
    }
    return resolved
  }

  /// The path relative to the root, as answers name a file.
  func relativePath(_ resolved: String) -> String {
    let prefix = directory == "/" ? "/" : directory + "/"
    return resolved.hasPrefix(prefix) ? String(resolved.dropFirst(prefix.count)) : resolved
  }

  private static func realPath(_ path: String) -> String? {
    guard let pointer = realpath(path, nil) else { return nil }
    defer { free(pointer) }
    return String(cString: pointer)
  }

  private static func systemError() -> String {
    errno == ENOENT ? "no such file" : String(cString: strerror(errno))
  }
}

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

  /// A file to write, new, inside the root: its directory resolved and inside the root, its
  /// name a plain name, nothing there yet (an answer never replaces a file).
  /// - Parameter relative: A path relative to the root.
  /// - Returns: The path to write, resolved.
  /// - Throws: ``QueryError/refusedPath(path:reason:)`` for a directory outside the root or
  ///   missing, or a name taken.
  public func resolveNew(_ relative: String) throws(QueryError) -> String {
    guard !relative.isEmpty, !relative.hasSuffix("/") else {
      throw .refusedPath(path: relative, reason: "not a file name")
    }
    guard !relative.utf8.contains(0), relative.utf8.count < Int(PATH_MAX) else {
      throw .refusedPath(
        path: String(relative.prefix(200)), reason: "not a usable path (a NUL byte, or too long)")
    }
    let joined = relative.hasPrefix("/") ? relative : directory + "/" + relative
    let slash = joined.lastIndex(of: "/")!
    let name = String(joined[joined.index(after: slash)...])
    guard name != ".", name != ".." else {
      throw .refusedPath(path: relative, reason: "not a file name")
    }
    let parent = slash == joined.startIndex ? "/" : String(joined[..<slash])
    guard let resolved = Self.realPath(parent) else {
      throw .refusedPath(path: relative, reason: "its directory: " + Self.systemError())
    }
    let prefix = directory == "/" ? "/" : directory + "/"
    guard resolved == directory || resolved.hasPrefix(prefix) else {
      throw .refusedPath(
        path: relative, reason: "it is outside the root the server was started with")
    }
    let path = (resolved == "/" ? "" : resolved) + "/" + name
    var status = stat()
    guard lstat(path, &status) != 0, errno == ENOENT else {
      throw .refusedPath(
        path: relative,
        reason: "something is there already; name a new file (answers never "
          + "replace files)")
    }
    return path
  }

  /// The regular files a path names inside the root: the file, or every regular file under
  /// the directory, each resolved and checked as ``resolve(_:)`` checks it.
  /// - Parameters:
  ///   - relative: A file or a directory relative to the root.
  ///   - limit: The most files to take.
  /// - Returns: The files' resolved paths, sorted.
  /// - Throws: ``QueryError/refusedPath(path:reason:)`` for a path outside the root, a file
  ///   under the directory that leads outside it, or more than `limit` files.
  func files(_ relative: String, limit: Int) throws(QueryError) -> [String] {
    guard !relative.isEmpty, !relative.utf8.contains(0) else {
      throw .refusedPath(path: String(relative.prefix(200)), reason: "not a usable path")
    }
    let joined = relative.hasPrefix("/") ? relative : directory + "/" + relative
    var status = stat()
    guard let resolved = Self.realPath(joined), stat(resolved, &status) == 0,
      status.st_mode & S_IFMT == S_IFDIR
    else {
      return [try resolve(relative)]
    }
    let prefix = directory == "/" ? "/" : directory + "/"
    guard resolved == directory || resolved.hasPrefix(prefix) else {
      throw .refusedPath(
        path: relative, reason: "it is outside the root the server was started with")
    }
    var found: [String] = []
    var pending = [resolved]
    while let folder = pending.popLast() {
      guard let stream = opendir(folder) else { continue }
      defer { closedir(stream) }
      while let entry = readdir(stream) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
          String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        if name == "." || name == ".." || name.hasPrefix(".") { continue }
        let path = folder + "/" + name
        var entryStatus = stat()
        guard lstat(path, &entryStatus) == 0 else { continue }
        if entryStatus.st_mode & S_IFMT == S_IFDIR {
          pending.append(path)
        } else {
          found.append(try resolve(path))
          guard found.count <= limit else {
            throw .refusedPath(path: relative, reason: "holds more than \(limit) files")
          }
        }
      }
    }
    return found.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
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

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What ``AtomicFile`` does with a path, decided by what the path names now.
enum FileDestination: Equatable {
  /// Write a temporary file and rename it to this path: the path itself, or the file a
  /// symbolic link leads to (existing or not).
  case replace(String)
  /// Open the path and write to it: a character device, FIFO or socket.
  case writeThrough

  /// How many symbolic links in a row are followed, as the kernel's `ELOOP` limit.
  private static var linkLimit: Int { 40 }

  /// Looks at what `path` names.
  /// - Throws: ``AtomicFileError/invalidPath(_:)`` for a path that names no file,
  ///   ``AtomicFileError/notAFile(path:kind:)`` for a directory or block device.
  init(_ path: String) throws(AtomicFileError) {
    guard !path.isEmpty, !path.hasSuffix("/") else { throw .invalidPath(path) }
    var info = stat()
    if stat(path, &info) == 0 {
      switch info.st_mode & S_IFMT {
      case S_IFCHR, S_IFIFO, S_IFSOCK:
        self = .writeThrough
      case S_IFDIR:
        throw .notAFile(path: path, kind: "a directory")
      case S_IFREG:
        self = .replace(Self.target(of: path))
      default:
        throw .notAFile(path: path, kind: "a block device or other special file")
      }
    } else {
      // Nothing there yet, or a link that leads to nothing yet: create what it leads to.
      self = .replace(Self.target(of: path))
    }
  }

  /// The path at the end of the symbolic links starting at `path`; `path` itself when it is
  /// not a link (or a link cannot be read: creating the file then reports why).
  private static func target(of path: String) -> String {
    var current = path
    for _ in 0..<linkLimit {
      var info = stat()
      guard lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return current }
      var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      let count = readlink(current, &buffer, buffer.count - 1)
      guard count > 0 else { return current }
      let link = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      if link.hasPrefix("/") {
        current = link
      } else if let slash = current.lastIndex(of: "/") {
        current = String(current[...slash]) + link
      } else {
        current = link
      }
    }
    return current
  }
}

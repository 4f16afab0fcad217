#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file descriptor opened for writing, with the POSIX calls `AtomicFile` needs.
///
/// Each call returns `false` (or `nil`) on failure and leaves the reason in ``errorCode``.
struct POSIXFile: ~Copyable {
  private var descriptor: Int32

  /// The calling thread's `errno`.
  static var errorCode: Int32 { errno }

  /// Creates the file at `path`, failing if it already exists.
  init?(creatingNew path: String) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
    guard descriptor >= 0 else { return nil }
    self.descriptor = descriptor
  }

  /// Opens the file at `path` for writing from its start, creating or emptying it.
  init?(truncating path: String) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
    guard descriptor >= 0 else { return nil }
    self.descriptor = descriptor
  }

  /// Opens an existing character device, FIFO or socket at `path` for writing through it.
  init?(writingThrough path: String) {
    let descriptor = open(path, O_WRONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    self.descriptor = descriptor
  }

  /// The system's message for an error code: `No such file or directory`.
  static func message(_ code: Int32) -> String {
    String(cString: strerror(code))
  }

  deinit {
    if descriptor >= 0 { _ = Self.closeDescriptor(descriptor) }
  }

  /// Writes all of `bytes`, resuming after partial writes and interruptions.
  func write(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBytes { POSIXIO.write($0, to: descriptor) }
  }

  /// Gives the file the permission bits, owner and group of the regular file it replaces.
  ///
  /// It does nothing when there is no regular file at `path`. A change of owner the process
  /// may not make (it is not root) is left out: the file is then the process's own.
  /// - Parameter path: The file about to be replaced.
  /// - Returns: `false` when the permission bits could not be set.
  func takeModeAndOwner(of path: String) -> Bool {
    var info = stat()
    guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return true }
    if info.st_uid != geteuid() || info.st_gid != getegid() {
      _ = fchown(descriptor, info.st_uid, info.st_gid)
    }
    return fchmod(descriptor, info.st_mode & 0o7777) == 0
  }

  /// Flushes the file's contents to the storage device.
  func synchronize() -> Bool {
    fsync(descriptor) == 0
  }

  /// Closes the file; later calls do nothing and succeed.
  mutating func close() -> Bool {
    guard descriptor >= 0 else { return true }
    defer { descriptor = -1 }
    return Self.closeDescriptor(descriptor)
  }

  /// Renames `source` to `destination`, atomically replacing any file there.
  static func rename(_ source: String, to destination: String) -> Bool {
    systemRename(source, destination) == 0
  }

  /// Removes the file at `path`, ignoring failures.
  static func remove(_ path: String) {
    _ = unlink(path)
  }

  private static func closeDescriptor(_ descriptor: Int32) -> Bool {
    systemClose(descriptor) == 0
  }
}

private func systemRename(_ source: String, _ destination: String) -> Int32 {
  rename(source, destination)
}

private func systemClose(_ descriptor: Int32) -> Int32 {
  close(descriptor)
}

import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The temporary files that ``AtomicFile`` writes are in progress, so that a process
/// interrupted by a signal can remove them before it exits.
///
/// Guarded by an `NSLock` (a pthread mutex, which ThreadSanitizer understands). After
/// ``removeAll()`` no new temporary file may be registered: the process is exiting.
enum TemporaryFiles {
  private final class Registry: @unchecked Sendable {
    // @unchecked Sendable: `paths` and `isClosed` are only touched while `lock` is held.
    let lock = NSLock()
    var paths: Set<String> = []
    var isClosed = false
    /// The directories already cleared of stale temporary files by this process.
    var clearedDirectories: Set<String> = []
  }

  private static let registry = Registry()

  /// The name of a new temporary file for the file `name`: `.NAME.PID-RANDOM.tmp`, hidden,
  /// and naming the process that writes it so that a later one can tell it is stale.
  static func name(for name: String) -> String {
    "." + name + "." + String(getpid()) + "-"
      + String(UInt64.random(in: .min ... .max), radix: 16) + ".tmp"
  }

  /// Removes, once per process and directory, the temporary files of ``name(for:)``'s shape
  /// in `directory` (`""` for the working directory) that a process which no longer runs
  /// left behind when it was killed before it could clean up (SIGKILL, a power cut).
  ///
  /// Only regular files of this user whose writer is gone are removed; a name whose process
  /// still runs, or that is not of that shape, is left alone.
  static func removeStale(in directory: String) {
    let isFirst = registry.lock.withLock {
      registry.clearedDirectories.insert(directory).inserted
    }
    guard isFirst,
      let names = try? FileManager.default.contentsOfDirectory(
        atPath: directory.isEmpty ? "." : directory)
    else { return }
    for name in names where name.hasPrefix(".") && name.hasSuffix(".tmp") {
      guard let process = writer(ofTemporaryFile: name), process != getpid(),
        kill(process, 0) != 0, errno == ESRCH
      else { continue }
      let path = directory + name
      var info = stat()
      guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
        info.st_uid == geteuid()
      else { continue }
      POSIXFile.remove(path)
    }
  }

  /// The process id in a temporary file's name, `.NAME.PID-RANDOM.tmp`.
  private static func writer(ofTemporaryFile name: String) -> pid_t? {
    let stem = name.dropLast(".tmp".count)
    guard let dot = stem.lastIndex(of: ".") else { return nil }
    let parts = stem[stem.index(after: dot)...].split(separator: "-")
    guard parts.count == 2, parts[1].count <= 16, UInt64(parts[1], radix: 16) != nil,
      let process = pid_t(parts[0]), process > 0
    else { return nil }
    return process
  }

  /// Records `path` before the file is created; `false` once ``removeAll()`` was called.
  static func register(_ path: String) -> Bool {
    registry.lock.withLock {
      guard !registry.isClosed else { return false }
      registry.paths.insert(path)
      return true
    }
  }

  /// Forgets `path`: it was renamed, or never created.
  static func forget(_ path: String) {
    registry.lock.withLock { _ = registry.paths.remove(path) }
  }

  /// Removes the file at `path` and forgets it.
  static func remove(_ path: String) {
    registry.lock.withLock {
      POSIXFile.remove(path)
      registry.paths.remove(path)
    }
  }

  /// Removes every registered file and refuses new ones.
  static func removeAll() {
    registry.lock.withLock {
      registry.isClosed = true
      for path in registry.paths { POSIXFile.remove(path) }
      registry.paths = []
    }
  }
}

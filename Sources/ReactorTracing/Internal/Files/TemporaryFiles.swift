import Foundation

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
  }

  private static let registry = Registry()

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

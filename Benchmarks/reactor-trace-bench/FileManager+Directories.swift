import Foundation

extension FileManager {
  /// Creates the directory at `path`, and its parents, unless it exists.
  func createDirectoryIfNeeded(_ path: String) throws(BenchFailure) {
    do {
      try createDirectory(atPath: path, withIntermediateDirectories: true)
    } catch {
      throw .file(path: path, reason: "cannot create the directory: \(error)")
    }
  }
}

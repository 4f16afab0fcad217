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
///
/// ``AtomicFileBatch`` writes several files all or nothing.
public enum AtomicFile {
  /// Writes `bytes` to the file at `path`, replacing it atomically if it exists.
  ///
  /// A new file gets the default permissions for new files (`0666` minus the umask); a file
  /// replaced keeps the permission bits, and as far as the process may set them the owner
  /// and group, of the one it replaces. Temporary files that a killed process left in the
  /// directory are removed on the first write there.
  ///
  /// - Parameters:
  ///   - bytes: The complete new contents.
  ///   - path: The destination, absolute or relative to the working directory.
  /// - Throws: ``AtomicFileError`` naming the step that failed and the system's reason.
  public static func write(_ bytes: [UInt8], to path: String) throws(AtomicFileError) {
    let batch = AtomicFileBatch()
    try batch.add(bytes, to: path)
    try batch.commit()
  }

  /// Removes every temporary file that a write in progress has created, and makes writes
  /// that have not created theirs yet fail: for a process about to exit on a signal.
  ///
  /// Safe to call from any thread (not from a signal handler itself: take the signal on a
  /// thread, as `DispatchSource.makeSignalSource` does).
  public static func removeTemporaryFiles() {
    TemporaryFiles.removeAll()
  }
}

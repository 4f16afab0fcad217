import Foundation
import ReactorLiveRecording
import ReactorTracing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The token kept in the stream directory's `token` file, or given in a file of the user's.
///
/// A kept token file is used only when it is a regular file (not a link) owned by this user
/// and readable by no one else; a new one is written to a temporary file created `0600`
/// and renamed into place, so it is never readable by others, even briefly.
enum TokenFile {
  /// Whether `token` can be a token: 16 to 128 letters, digits, `-` or `_`.
  static func isValid(_ token: String) -> Bool {
    (16...128).contains(token.utf8.count) && LiveProtocol.isValidStreamID(token.prefix(64))
      && LiveProtocol.isValidStreamID(token.suffix(64))
  }

  /// The token in `path`'s first line, after checking who owns the file and who may read it.
  static func read(_ path: String) throws(LiveServerError) -> String {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
    guard descriptor >= 0 else {
      throw .unsafeTokenFile(path: path, reason: String(cString: strerror(errno)))
    }
    defer { _ = close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
      throw .unsafeTokenFile(path: path, reason: "not a regular file")
    }
    guard status.st_uid == geteuid() else {
      throw .unsafeTokenFile(path: path, reason: "owned by another user")
    }
    guard status.st_mode & 0o077 == 0 else {
      throw .unsafeTokenFile(
        path: path,
        reason:
          "readable or writable by others (mode \(String(status.st_mode & 0o777, radix: 8)); chmod 600 it)"
      )
    }
    guard let bytes = POSIXIO.readToEnd(descriptor), bytes.count <= 4096 else {
      throw .unsafeTokenFile(path: path, reason: "unreadable, or over 4 KiB")
    }
    let token = String(decoding: bytes.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
      .trimmingCharacters(in: .whitespaces)
    guard isValid(token) else { throw .invalidToken(token) }
    return token
  }

  /// The token kept in `directory`, or a new one kept there.
  static func settle(in directory: String) throws(LiveServerError) -> String {
    let path = directory + "/token"
    var status = stat()
    if lstat(path, &status) == 0 {
      do {
        return try read(path)
      } catch .invalidToken {
        // Not a token (an empty or damaged file of this user's): replaced below.
      }
    }
    let token = LiveOptions.randomStreamID()
    var template = Array((directory + "/.token-XXXXXX").utf8CString)
    let descriptor = mkstemp(&template)
    guard descriptor >= 0 else {
      throw .unusableDirectory(path: directory, reason: "cannot write its token file")
    }
    let temporary = String(
      decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    _ = fchmod(descriptor, 0o600)
    let written = Array((token + "\n").utf8).withUnsafeBytes { POSIXIO.write($0, to: descriptor) }
    _ = close(descriptor)
    guard written, rename(temporary, path) == 0 else {
      _ = unlink(temporary)
      throw .unusableDirectory(path: directory, reason: "cannot write its token file")
    }
    return token
  }
}

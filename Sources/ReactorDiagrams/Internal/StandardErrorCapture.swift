#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a C library prints straight to standard error while a call runs, caught instead of
/// shown: Graphviz's cairo plugin writes some warnings with `fprintf(stderr, …)`, around the
/// error callback that catches the rest.
///
/// File descriptor 2 points at a temporary file during the call, so what another thread
/// writes to standard error meanwhile lands there too: lines that `isCaught` does not claim
/// are written back to standard error afterwards. It is used only around the short cairo
/// rendering calls, under Graphviz's lock.
enum StandardErrorCapture {
  /// Runs `body` and returns its result with the lines written to standard error meanwhile
  /// that `isCaught` claims; runs it without catching anything if the descriptors cannot be
  /// redirected.
  static func capturing<T, E: Error>(
    lines isCaught: (Substring) -> Bool, _ body: () throws(E) -> T
  ) throws(E) -> (T, String) {
    fflush(nil)
    let saved = dup(2)
    guard saved >= 0, let file = tmpfile() else {
      if saved >= 0 { close(saved) }
      return (try body(), "")
    }
    defer { fclose(file) }
    guard dup2(fileno(file), 2) >= 0 else {
      close(saved)
      return (try body(), "")
    }
    let result: Result<T, E>
    do {
      result = .success(try body())
    } catch {
      result = .failure(error)
    }
    fflush(nil)
    dup2(saved, 2)
    close(saved)
    var bytes: [UInt8] = []
    rewind(file)
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = fread(&buffer, 1, buffer.count, file)
      guard count > 0 else { break }
      bytes += buffer[..<count]
    }
    var caught = ""
    var others: [UInt8] = []
    for line in String(decoding: bytes, as: UTF8.self).split(
      separator: "\n", omittingEmptySubsequences: false)
    {
      if isCaught(line) {
        caught += line + "\n"
      } else if !line.isEmpty {
        others += Array(line.utf8) + [UInt8(ascii: "\n")]
      }
    }
    others.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = write(2, buffer.baseAddress! + offset, buffer.count - offset)
        if written <= 0 { break }
        offset += written
      }
    }
    return (try result.get(), caught)
  }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The package's reads and writes of file descriptors and sockets: each call resumed after
/// an interruption (`EINTR`), each write resumed after a partial one until every byte is out.
///
/// In ReactorTracing, with `package` access, because its users (the trace writer and reader,
/// the inspector's spill files, the command line's output, the live recorder's socket and
/// the live server's streams) all depend on it and on no lower module that does file I/O:
/// ReactorCore has none, and ReactorJSON is the JSON library.
///
/// On failure a call returns `false` (or a negative count) and leaves the reason in `errno`.
package enum POSIXIO {
  /// Writes all of `bytes` to `descriptor` with `write(2)`.
  /// - Returns: Whether every byte was written.
  package static func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Bool {
    writeAll(bytes) { pointer, count, _ in systemWrite(descriptor, pointer, count) }
  }

  /// Writes all of `bytes` to `descriptor` at file offset `offset` with `pwrite(2)`, which
  /// leaves the descriptor's own offset alone.
  /// - Returns: Whether every byte was written.
  package static func write(
    _ bytes: UnsafeRawBufferPointer, to descriptor: Int32, at offset: Int
  ) -> Bool {
    writeAll(bytes) { pointer, count, done in
      pwrite(descriptor, pointer, count, off_t(offset + done))
    }
  }

  /// Sends all of `bytes` on the socket `descriptor` with `send(2)` and `flags`.
  /// - Returns: Whether every byte was sent.
  package static func send(
    _ bytes: UnsafeRawBufferPointer, to descriptor: Int32, flags: Int32
  ) -> Bool {
    writeAll(bytes) { pointer, count, _ in systemSend(descriptor, pointer, count, flags) }
  }

  /// Reads at most `buffer.count` bytes from `descriptor` with `read(2)`.
  /// - Returns: The count read, 0 at the end of the file, or -1 on failure.
  package static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
    retryingInterruptions { systemRead(descriptor, buffer.baseAddress, buffer.count) }
  }

  /// Reads at most `buffer.count` bytes from `descriptor` at file offset `offset` with
  /// `pread(2)`.
  /// - Returns: The count read, 0 at the end of the file, or -1 on failure.
  package static func read(
    _ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int
  ) -> Int {
    retryingInterruptions { pread(descriptor, buffer.baseAddress, buffer.count, off_t(offset)) }
  }

  /// Receives at most `buffer.count` bytes from the socket `descriptor` with `recv(2)`.
  /// - Returns: The count received, 0 when the peer closed the connection, or -1 on failure.
  package static func receive(
    _ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer
  ) -> Int {
    retryingInterruptions { recv(descriptor, buffer.baseAddress, buffer.count, 0) }
  }

  /// Reads `descriptor` to its end.
  /// - Returns: Every byte, or `nil` on failure.
  package static func readToEnd(_ descriptor: Int32) -> [UInt8]? {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, into: $0) }
      if count < 0 { return nil }
      if count == 0 { return bytes }
      bytes.append(contentsOf: buffer[..<count])
    }
  }

  /// Calls `call` again while it fails with `EINTR`; returns what it last returned.
  package static func retryingInterruptions(_ call: () -> Int) -> Int {
    while true {
      let result = call()
      if result < 0, errno == EINTR { continue }
      return result
    }
  }

  /// Writes all of `bytes` through `call`, which is given where the rest starts, how many
  /// bytes are left and how many are written already, and returns how many it wrote, or a
  /// negative count with `errno` set: called again after an interruption or a partial write.
  ///
  /// A call that writes nothing without failing ends it with `EIO`, rather than looping.
  /// - Returns: Whether every byte was written.
  package static func writeAll(
    _ bytes: UnsafeRawBufferPointer, through call: (UnsafeRawPointer, Int, Int) -> Int
  ) -> Bool {
    guard let base = bytes.baseAddress else { return true }
    var done = 0
    while done < bytes.count {
      let count = retryingInterruptions { call(base + done, bytes.count - done, done) }
      if count < 0 { return false }
      if count == 0 {
        errno = EIO
        return false
      }
      done += count
    }
    return true
  }
}

// The system calls under names of their own: inside `POSIXIO`, `write`, `read` and `send`
// name its own functions.

private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  write(descriptor, bytes, count)
}

private func systemRead(_ descriptor: Int32, _ bytes: UnsafeMutableRawPointer?, _ count: Int) -> Int
{
  read(descriptor, bytes, count)
}

private func systemSend(
  _ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int, _ flags: Int32
) -> Int {
  send(descriptor, bytes, count, flags)
}

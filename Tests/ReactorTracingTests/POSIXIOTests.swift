import Foundation
import ReactorTracing
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("POSIX reads and writes")
struct POSIXIOTests {
  /// Bytes that differ from one offset to the next, so that a piece written twice or out of
  /// place shows.
  private func pattern(_ count: Int) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 / 251) }
  }

  @Test func aWriteGoesOnAfterInterruptionsAndPartialWritesUntilEveryByteIsOut() {
    let bytes = pattern(1_000)
    var written: [UInt8] = []
    var offsets: [Int] = []
    var calls = 0
    let isWritten = bytes.withUnsafeBytes { buffer in
      POSIXIO.writeAll(buffer) { pointer, count, done in
        calls += 1
        // Every third call is interrupted; the others take at most 7 bytes.
        if calls % 3 == 0 {
          errno = EINTR
          return -1
        }
        offsets.append(done)
        let taken = min(count, 7)
        written.append(contentsOf: UnsafeRawBufferPointer(start: pointer, count: taken))
        return taken
      }
    }
    #expect(isWritten)
    #expect(written == bytes)
    #expect(offsets == Array(stride(from: 0, to: 1_000, by: 7)))
  }

  @Test func aWriteThatFailsReturnsFalseWithTheSystemsReason() {
    let bytes = pattern(10)
    let isWritten = bytes.withUnsafeBytes { buffer in
      POSIXIO.writeAll(buffer) { _, _, _ in
        errno = EBADF
        return -1
      }
    }
    let code = errno
    #expect(!isWritten)
    #expect(code == EBADF)
  }

  @Test func aWriteThatMakesNoProgressFailsWithAnIOErrorInsteadOfLooping() {
    var calls = 0
    let isWritten = pattern(10).withUnsafeBytes { buffer in
      POSIXIO.writeAll(buffer) { _, _, _ in
        calls += 1
        return 0
      }
    }
    let code = errno
    #expect(!isWritten)
    #expect(code == EIO)
    #expect(calls == 1)
  }

  @Test func nothingToWriteSucceedsWithoutACall() {
    var calls = 0
    let isWritten = [UInt8]().withUnsafeBytes { buffer in
      POSIXIO.writeAll(buffer) { _, count, _ in
        calls += 1
        return count
      }
    }
    #expect(isWritten)
    #expect(calls == 0)
  }

  @Test func anInterruptedCallIsMadeAgainAndItsResultReturned() {
    var calls = 0
    let result = POSIXIO.retryingInterruptions {
      calls += 1
      if calls < 3 {
        errno = EINTR
        return -1
      }
      return 42
    }
    #expect(result == 42)
    #expect(calls == 3)
  }

  @Test func anotherFailureIsReturnedAtOnce() {
    var calls = 0
    let result = POSIXIO.retryingInterruptions {
      calls += 1
      errno = EBADF
      return -1
    }
    #expect(result == -1)
    #expect(calls == 1)
  }

  /// 1 MiB through a pipe, whose buffer (64 KiB on Linux) holds far less: the writer waits
  /// for the reader, and every byte arrives once, in order.
  @Test func aMebibyteGoesThroughAPipeWhole() throws {
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    let (readEnd, writeEnd) = (ends[0], ends[1])
    defer { close(readEnd) }
    let bytes = pattern(1 << 20)
    let writer = Thread {
      _ = bytes.withUnsafeBytes { POSIXIO.write($0, to: writeEnd) }
      close(writeEnd)
    }
    writer.start()
    let read = POSIXIO.readToEnd(readEnd)
    #expect(read == bytes)
  }

  @Test func aSocketSendsAndReceivesEveryByte() throws {
    var ends: [Int32] = [0, 0]
    #if canImport(Darwin)
    let streamType = SOCK_STREAM
    #else
    let streamType = Int32(SOCK_STREAM.rawValue)
    #endif
    try #require(socketpair(AF_UNIX, streamType, 0, &ends) == 0)
    defer { close(ends[1]) }
    let bytes = pattern(300_000)
    let sender = ends[0]
    let thread = Thread {
      _ = bytes.withUnsafeBytes { POSIXIO.send($0, to: sender, flags: 0) }
      close(sender)
    }
    thread.start()
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = buffer.withUnsafeMutableBytes { POSIXIO.receive(ends[1], into: $0) }
      try #require(count >= 0)
      if count == 0 { break }
      received += buffer[..<count]
    }
    #expect(received == bytes)
  }

  @Test func writesAndReadsAtOffsetsLeaveTheRestOfTheFileAlone() throws {
    let file = try #require(tmpfile())
    defer { fclose(file) }
    let descriptor = fileno(file)
    let first = pattern(100)
    let second: [UInt8] = Array(repeating: 0xAB, count: 10)
    #expect(first.withUnsafeBytes { POSIXIO.write($0, to: descriptor, at: 0) })
    #expect(second.withUnsafeBytes { POSIXIO.write($0, to: descriptor, at: 50) })
    var piece = [UInt8](repeating: 0, count: 20)
    let count = piece.withUnsafeMutableBytes { POSIXIO.read(descriptor, into: $0, at: 45) }
    #expect(count == 20)
    #expect(piece == Array(first[45..<50]) + second + Array(first[60..<65]))
    // The descriptor's own offset did not move: a plain read starts at the file's start.
    var start = [UInt8](repeating: 0, count: 4)
    #expect(start.withUnsafeMutableBytes { POSIXIO.read(descriptor, into: $0) } == 4)
    #expect(start == Array(first[..<4]))
  }
}

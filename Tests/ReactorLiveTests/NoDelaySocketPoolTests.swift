import FlyingSocks
import Synchronization
import Testing

@testable import ReactorLiveServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct NoDelaySocketPoolTests {
  /// A pool that answers at once and remembers which sockets waited for what.
  private final class AnsweringPool: AsyncSocketPool {
    let suspended = Mutex<[(Int32, Socket.Events)]>([])
    func prepare() async throws {}
    func run() async throws {}
    func suspendSocket(_ socket: Socket, untilReadyFor events: Socket.Events) async throws {
      suspended.withLock { $0.append((socket.file.rawValue, events)) }
    }
  }

  private static func noDelay(_ socket: Socket) -> Int32 {
    var value: Int32 = -1
    var size = socklen_t(MemoryLayout<Int32>.size)
    _ = getsockopt(socket.file.rawValue, Int32(IPPROTO_TCP), TCP_NODELAY, &value, &size)
    return value
  }

  @Test func aSocketTheServerWaitsForSendsWithoutNaglesDelay() async throws {
    let inner = AnsweringPool()
    let pool = NoDelaySocketPool(pool: inner)
    let socket = try Socket(domain: AF_INET, type: .stream)
    defer { try? socket.close() }
    #expect(Self.noDelay(socket) == 0)

    try await pool.suspendSocket(socket, untilReadyFor: [.read])

    #expect(Self.noDelay(socket) != 0)
    let suspended = inner.suspended.withLock { $0 }
    #expect(suspended.count == 1)
    #expect(suspended.first?.0 == socket.file.rawValue)
    #expect(suspended.first?.1 == [.read])
  }
}

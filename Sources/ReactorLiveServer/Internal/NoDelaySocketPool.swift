import FlyingFox
import FlyingSocks

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// FlyingFox's socket pool, with Nagle's algorithm turned off on every socket it waits for.
///
/// FlyingFox writes a response's head and its body in two writes and leaves Nagle's algorithm
/// on. An app's batch is answered on a connection kept open, so the body then waited for the
/// app's delayed acknowledgement of the head (up to 40 ms on Linux loopback) before it left,
/// and the app sends its next batch only after the answer: that wait was most of the latency
/// from `reduce` to the page. The server cannot reach the sockets FlyingFox accepts, but every
/// socket passes through the pool before its first read, so the pool sets `TCP_NODELAY` there.
/// Setting it again on a socket that has it, or on one that is not TCP, changes nothing.
struct NoDelaySocketPool<Pool: AsyncSocketPool>: AsyncSocketPool {
  let pool: Pool

  func prepare() async throws {
    try await pool.prepare()
  }

  func run() async throws {
    try await pool.run()
  }

  func suspendSocket(_ socket: Socket, untilReadyFor events: Socket.Events) async throws {
    var one: Int32 = 1
    _ = setsockopt(
      socket.file.rawValue, Int32(IPPROTO_TCP), TCP_NODELAY, &one,
      socklen_t(MemoryLayout<Int32>.size))
    try await pool.suspendSocket(socket, untilReadyFor: events)
  }
}

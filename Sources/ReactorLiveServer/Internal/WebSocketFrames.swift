import Foundation

/// The WebSocket wire format (RFC 6455) as the live page's socket uses it: the handshake's
/// accept value, the server's unmasked text frames, and the client's masked frames read
/// within a size limit.
enum WebSocketFrames {
  /// The opcodes the server acts on.
  static let text: UInt8 = 0x1
  static let close: UInt8 = 0x8
  static let ping: UInt8 = 0x9

  /// `Sec-WebSocket-Accept` for a client's `Sec-WebSocket-Key`.
  static func accept(key: String) -> String {
    Data(SHA1.digest(Array((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8)))
      .base64EncodedString()
  }

  /// A final, unmasked frame of `opcode` carrying `payload`.
  static func frame(_ opcode: UInt8, _ payload: [UInt8]) -> [UInt8] {
    var frame: [UInt8] = [0x80 | opcode]
    switch payload.count {
    case ..<126: frame.append(UInt8(payload.count))
    case ..<65_536:
      frame.append(126)
      frame += [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
    default:
      frame.append(127)
      frame += (0..<8).reversed().map { UInt8(truncatingIfNeeded: payload.count >> ($0 * 8)) }
    }
    return frame + payload
  }

  /// The next frame from the client: its opcode and unmasked payload.
  /// - Throws: ``HTTPReadFailure`` for an unmasked frame or one over `limit` bytes; a socket
  ///   error when the connection ends.
  static func read(
    from connection: inout HTTPConnection, limit: Int
  ) async throws -> (opcode: UInt8, payload: [UInt8]) {
    let head = try await connection.bytes(2)
    let opcode = head[0] & 0x0F
    guard head[1] & 0x80 != 0 else {
      throw HTTPReadFailure(status: 400, reason: "an unmasked frame from a page")
    }
    var length = Int(head[1] & 0x7F)
    if length == 126 {
      let bytes = try await connection.bytes(2)
      length = Int(bytes[0]) << 8 | Int(bytes[1])
    } else if length == 127 {
      let bytes = try await connection.bytes(8)
      guard bytes[0] == 0, bytes[1] == 0, bytes[2] == 0 else {
        throw HTTPReadFailure(status: 400, reason: "a frame over \(limit) bytes from a page")
      }
      length = bytes.reduce(0) { $0 << 8 | Int($1) }
    }
    guard length <= limit else {
      throw HTTPReadFailure(status: 400, reason: "a frame over \(limit) bytes from a page")
    }
    let mask = try await connection.bytes(4)
    var payload = try await connection.bytes(length)
    for index in payload.indices { payload[index] ^= mask[index & 3] }
    return (opcode, payload)
  }
}

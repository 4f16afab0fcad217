import CZlib

/// gzip through the system's zlib: the `.gz` summaries and traces a fleet ships.
///
/// Whole buffers in memory, with a bound on what inflating may produce, so that a small
/// hostile file (a "zip bomb") cannot fill memory.
enum Gzip {
  /// Why bytes could not be inflated.
  enum Failure: Error, Sendable, Equatable {
    /// zlib refused the bytes, with its message.
    case corrupt(String)
    /// The bytes end before the compressed stream does.
    case truncated
    /// Inflating would produce more than the limit.
    case tooLarge(limit: Int)
  }

  /// Whether `bytes` start with gzip's magic number.
  static func isCompressed(_ bytes: [UInt8]) -> Bool {
    bytes.count >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b
  }

  /// The bytes of every gzip member in `bytes`, one after the other (as `gunzip` reads
  /// concatenated files).
  ///
  /// - Parameters:
  ///   - bytes: gzip data.
  ///   - limit: The most bytes the result may have.
  /// - Returns: The inflated bytes.
  /// - Throws: ``Failure``.
  static func inflate(_ bytes: [UInt8], limit: Int) throws(Failure) -> [UInt8] {
    var output: [UInt8] = []
    var offset = 0
    while offset < bytes.count {
      offset += try inflateMember(bytes, from: offset, into: &output, limit: limit)
    }
    return output
  }

  /// Inflates the member starting at `start`; returns how many input bytes it took.
  private static func inflateMember(
    _ bytes: [UInt8], from start: Int, into output: inout [UInt8], limit: Int
  ) throws(Failure) -> Int {
    var stream = z_stream()
    guard reactor_trace_inflate_init_gzip(&stream) == Z_OK else {
      throw .corrupt("zlib could not start inflating")
    }
    defer { inflateEnd(&stream) }
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    var consumed = 0
    var status: Int32 = Z_OK
    let failure: Failure? = bytes.withUnsafeBufferPointer { input -> Failure? in
      let base = UnsafeMutablePointer(mutating: input.baseAddress!) + start
      let available = input.count - start
      stream.next_in = base
      stream.avail_in = UInt32(clamping: available)
      while status != Z_STREAM_END {
        status = chunk.withUnsafeMutableBufferPointer { buffer in
          stream.next_out = buffer.baseAddress
          stream.avail_out = UInt32(buffer.count)
          return CZlib.inflate(&stream, Z_NO_FLUSH)
        }
        let produced = chunk.count - Int(stream.avail_out)
        guard output.count + produced <= limit else { return .tooLarge(limit: limit) }
        output.append(contentsOf: chunk[0..<produced])
        switch status {
        case Z_OK, Z_STREAM_END:
          continue
        case Z_BUF_ERROR:
          // No progress: the input ran out before the stream ended.
          if stream.avail_in == 0 { return .truncated }
        default:
          let message = stream.msg.map { String(cString: $0) } ?? "error \(status)"
          return .corrupt(message)
        }
      }
      consumed = available - Int(stream.avail_in)
      return nil
    }
    if let failure { throw failure }
    return consumed
  }

  /// `bytes` compressed as one gzip member at zlib's default level.
  static func deflate(_ bytes: [UInt8]) -> [UInt8] {
    var stream = z_stream()
    guard reactor_trace_deflate_init_gzip(&stream, Z_DEFAULT_COMPRESSION) == Z_OK else {
      preconditionFailure("zlib could not start deflating")
    }
    defer { deflateEnd(&stream) }
    var output: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    bytes.withUnsafeBufferPointer { input in
      stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
      stream.avail_in = UInt32(input.count)
      var status: Int32 = Z_OK
      while status != Z_STREAM_END {
        status = chunk.withUnsafeMutableBufferPointer { buffer in
          stream.next_out = buffer.baseAddress
          stream.avail_out = UInt32(buffer.count)
          return CZlib.deflate(&stream, Z_FINISH)
        }
        output.append(contentsOf: chunk[0..<(chunk.count - Int(stream.avail_out))])
        precondition(status == Z_OK || status == Z_STREAM_END, "deflate failed: \(status)")
      }
    }
    return output
  }
}

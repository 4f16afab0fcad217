#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Many byte streams collected for later, held in one unnamed temporary file once together
/// they pass a limit (``defaultMemoryLimit``), so that what the inspector's page writes at the
/// end (every reactor's snapshots and diagram nodes) or a session's lanes read again does not
/// grow memory with the trace.
///
/// Each stream keeps its newest bytes in memory; when all of them together pass the limit,
/// the largest move to the end of the file as a chunk of that stream, until half the limit is
/// left. A stream is read back in order, from its chunks and then its bytes in memory, as
/// often as needed. The file is made with `tmpfile()`: it has no name, and the system removes
/// it when it is closed or the process ends. When no temporary file can be made the bytes
/// stay in memory.
package final class SpillStore {
  /// How many bytes the streams keep in memory, together, unless told otherwise.
  package static let defaultMemoryLimit = 1 << 20

  /// How many bytes the streams keep in memory, together, before some move to the file.
  package let memoryLimit: Int

  /// One place in the file.
  private struct Chunk {
    var offset: Int
    var count: Int
  }

  /// What the store keeps of one stream.
  private struct Stream {
    var pending: [UInt8] = []
    var chunks: [Chunk] = []
  }

  private var streams: [Stream] = []
  private var pendingCount = 0
  private var file: UnsafeMutablePointer<FILE>?
  private var fileSize = 0
  private var isFileUnusable = false
  /// Whether some bytes were lost on their way to the file.
  package private(set) var isBroken = false

  /// An empty store.
  /// - Parameter memoryLimit: How many bytes the streams keep in memory, together.
  package init(memoryLimit: Int = SpillStore.defaultMemoryLimit) {
    self.memoryLimit = max(memoryLimit, 1)
  }

  deinit {
    if let file { fclose(file) }
  }

  /// A new empty stream.
  /// - Returns: Its number, for the other methods.
  package func makeStream() -> Int {
    streams.append(Stream())
    return streams.count - 1
  }

  /// Appends `bytes` to a stream.
  package func append(_ bytes: some Collection<UInt8>, to stream: Int) {
    streams[stream].pending.append(contentsOf: bytes)
    pendingCount += bytes.count
    if pendingCount > memoryLimit { spill() }
  }

  /// Appends the UTF-8 of `text` to a stream.
  package func append(_ text: String, to stream: Int) {
    append(text.utf8, to: stream)
  }

  /// Gives every byte of a stream, in order and in pieces, to `output`; the stream is kept.
  /// - Returns: `false` when the temporary file could not be read back whole, or lost bytes.
  package func read(_ stream: Int, to output: ([UInt8]) -> Void) -> Bool {
    var isWhole = !isBroken
    if let file, !streams[stream].chunks.isEmpty {
      let descriptor = fileno(file)
      var piece = [UInt8](repeating: 0, count: Self.defaultMemoryLimit)
      for chunk in streams[stream].chunks {
        var done = 0
        while done < chunk.count {
          let wanted = min(piece.count, chunk.count - done)
          let count = piece.withUnsafeMutableBytes {
            POSIXIO.read(
              descriptor, into: UnsafeMutableRawBufferPointer(rebasing: $0[..<wanted]),
              at: chunk.offset + done)
          }
          guard count > 0 else {
            isWhole = false
            break
          }
          output(Array(piece[..<count]))
          done += count
        }
      }
    }
    if !streams[stream].pending.isEmpty { output(streams[stream].pending) }
    return isWhole
  }

  /// Moves the largest streams' bytes in memory to the file until half the limit is left.
  private func spill() {
    guard !isFileUnusable else { return }
    if file == nil { file = tmpfile() }
    guard let file else {
      isFileUnusable = true
      return
    }
    let descriptor = fileno(file)
    let largest = streams.indices.filter { !streams[$0].pending.isEmpty }
      .sorted { streams[$0].pending.count > streams[$1].pending.count }
    for index in largest where pendingCount > memoryLimit / 2 {
      let count = streams[index].pending.count
      guard Self.write(streams[index].pending, to: descriptor, at: fileSize) else {
        // Part of the bytes may be in the file: what is read back would not be whole.
        isFileUnusable = true
        isBroken = true
        return
      }
      streams[index].chunks.append(Chunk(offset: fileSize, count: count))
      streams[index].pending.removeAll(keepingCapacity: false)
      fileSize += count
      pendingCount -= count
    }
  }

  /// Writes all of `bytes` at `offset`.
  private static func write(_ bytes: [UInt8], to descriptor: Int32, at offset: Int) -> Bool {
    bytes.withUnsafeBytes { POSIXIO.write($0, to: descriptor, at: offset) }
  }
}

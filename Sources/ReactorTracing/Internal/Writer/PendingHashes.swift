import ReactorJSON

/// States whose hashes a batch's lines still need: hashed four at a time, then written over
/// the placeholders their lines hold.
///
/// FNV-1a is a chain of multiplications, each waiting on the last; four independent chains
/// in one loop keep the multiplier busy, so four states hash in about the time of one.
struct PendingHashes {
  /// How many states are hashed together.
  static var width: Int { 4 }

  private var states: [[UInt8]] = []
  /// Where each state's hash goes in the lines: the offset of its opening quote.
  private var offsets: [Int] = []

  init() {
    states.reserveCapacity(Self.width)
    offsets.reserveCapacity(Self.width)
  }

  /// Whether as many states are pending as are hashed together.
  var isFull: Bool { states.count == Self.width }

  /// Adds a state's canonical JSON, whose hash goes in quotes at `offset` in the lines.
  mutating func append(_ state: [UInt8], hashAt offset: Int) {
    states.append(state)
    offsets.append(offset)
  }

  /// Hashes the pending states and writes each hash at its place in `line`.
  mutating func resolve(in line: inout LineWriter) {
    guard !states.isEmpty else { return }
    let empty: [UInt8] = []
    let (first, second, third, fourth) = FNV1a64.hash(
      states[0], states.count > 1 ? states[1] : empty, states.count > 2 ? states[2] : empty,
      states.count > 3 ? states[3] : empty)
    let hashes = [first, second, third, fourth]
    line.bytes.withUnsafeMutableBufferPointer { bytes in
      for index in offsets.indices {
        precondition(offsets[index] + ByteCursor.hashCount <= bytes.count)
        var cursor = ByteCursor(bytes.baseAddress! + offsets[index])
        cursor.write(TraceHash(hashes[index]))
      }
    }
    states.removeAll(keepingCapacity: true)
    offsets.removeAll(keepingCapacity: true)
  }
}

/// The labels of the most recent actions, by id, in memory that does not grow with the trace.
///
/// Mutations usually refer to recent actions. A label is kept in the slot of its id modulo
/// `capacity` until another id takes the slot: with the recorder's ids, numbered 1, 2, 3…, the
/// labels of the last `capacity` actions. An older one is forgotten and reported as unknown.
struct LabelCache {
  /// The id in each slot, or `nil`.
  private var ids: [Int?]
  private var labels: [String]
  private let mask: Int

  /// A cache of at least `capacity` labels (rounded up to a power of two).
  init(capacity: Int = 4096) {
    var size = 1
    while size < capacity { size <<= 1 }
    ids = Array(repeating: nil, count: size)
    labels = Array(repeating: "", count: size)
    mask = size - 1
  }

  mutating func insert(_ label: String, for id: Int) {
    let slot = id & mask
    ids[slot] = id
    labels[slot] = label
  }

  subscript(id: Int) -> String? {
    let slot = id & mask
    return ids[slot] == id ? labels[slot] : nil
  }
}

/// A growable buffer of values that the file writer hands between the reactor's actor and its
/// thread.
///
/// A final class over raw storage: its methods take the element type from the instance, so
/// appending from unspecialized generic code looks up no generic type metadata (as
/// `Array<Value>.append` would, for every event). Not thread-safe: the writer swaps the
/// contents of the reactor's side and its own under its lock (``swapContents(with:)``), so
/// that both stay `let` properties, which the hot path calls without retaining them.
final class PayloadBuffer<Value> {
  // Touched by one thread at a time (the writer's lock hands the buffers over), each access
  // instantaneous: no dynamic exclusivity checks, which would cost more than the append.
  @exclusivity(unchecked) private var storage: UnsafeMutablePointer<Value>
  @exclusivity(unchecked) private var capacity: Int
  /// How many values were appended since the buffer was last emptied.
  @exclusivity(unchecked) private(set) var count = 0
  /// The values before it were discarded.
  @exclusivity(unchecked) private var start = 0

  init(capacity: Int) {
    self.capacity = max(1, capacity)
    storage = .allocate(capacity: self.capacity)
  }

  deinit {
    (storage + start).deinitialize(count: count - start)
    storage.deallocate()
  }

  /// The value at `index`, from 0.
  subscript(index: Int) -> Value {
    address(at: index).pointee
  }

  /// The address of the value at `index`, valid until the buffer next changes: the value
  /// read in place, without the copy (and the retains) ``subscript(_:)`` makes.
  func address(at index: Int) -> UnsafePointer<Value> {
    precondition(index >= start && index < count, "index out of range")
    return UnsafePointer(storage + index)
  }

  func append(_ value: Value) {
    if count == capacity { grow() }
    (storage + count).initialize(to: value)
    count += 1
  }

  /// Releases the values before `end` (already used), keeping their indices: the states of
  /// the events the writer has written are freed before the rest of the batch is.
  func discard(upTo end: Int) {
    guard end > start else { return }
    precondition(end <= count, "index out of range")
    (storage + start).deinitialize(count: end - start)
    start = end
  }

  /// Removes every value, keeping the storage.
  func removeAll() {
    (storage + start).deinitialize(count: count - start)
    start = 0
    count = 0
  }

  /// Exchanges the values and storage of two buffers, leaving both objects in place.
  func swapContents(with other: PayloadBuffer<Value>) {
    swap(&storage, &other.storage)
    swap(&capacity, &other.capacity)
    swap(&count, &other.count)
    swap(&start, &other.start)
  }

  private func grow() {
    let newCapacity = capacity * 2
    let new = UnsafeMutablePointer<Value>.allocate(capacity: newCapacity)
    (new + start).moveInitialize(from: storage + start, count: count - start)
    storage.deallocate()
    storage = new
    capacity = newCapacity
  }
}

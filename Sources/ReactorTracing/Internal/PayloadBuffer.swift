/// A growable buffer of values that the file writer hands between the reactor's actor and its
/// thread.
///
/// A final class over raw storage: its methods take the element type from the instance, so
/// appending from unspecialized generic code looks up no generic type metadata (as
/// `Array<Value>.append` would, for every event). Not thread-safe: the writer passes it from
/// one side to the other under its lock.
final class PayloadBuffer<Value> {
  private var storage: UnsafeMutablePointer<Value>
  private var capacity: Int
  /// How many values the buffer holds.
  private(set) var count = 0

  init(capacity: Int) {
    self.capacity = max(1, capacity)
    storage = .allocate(capacity: self.capacity)
  }

  deinit {
    storage.deinitialize(count: count)
    storage.deallocate()
  }

  /// The value at `index`, from 0.
  subscript(index: Int) -> Value {
    precondition(index >= 0 && index < count, "index out of range")
    return storage[index]
  }

  func append(_ value: Value) {
    if count == capacity { grow() }
    (storage + count).initialize(to: value)
    count += 1
  }

  /// Removes every value, keeping the storage.
  func removeAll() {
    storage.deinitialize(count: count)
    count = 0
  }

  private func grow() {
    let newCapacity = capacity * 2
    let new = UnsafeMutablePointer<Value>.allocate(capacity: newCapacity)
    new.moveInitialize(from: storage, count: count)
    storage.deallocate()
    storage = new
    capacity = newCapacity
  }
}

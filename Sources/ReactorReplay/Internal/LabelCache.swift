/// The labels of the most recent actions, by id, in memory that does not grow with the trace.
///
/// Mutations usually refer to recent actions; a label older than the last `capacity` actions
/// is forgotten and reported as unknown.
struct LabelCache {
  private var labels: [Int: String] = [:]
  private var order: [Int] = []
  private var oldest = 0
  let capacity: Int

  init(capacity: Int = 4096) { self.capacity = capacity }

  mutating func insert(_ label: String, for id: Int) {
    if labels.updateValue(label, forKey: id) == nil {
      order.append(id)
      if order.count - oldest > capacity {
        labels[order[oldest]] = nil
        oldest += 1
        if oldest > capacity {
          order.removeFirst(oldest)
          oldest = 0
        }
      }
    }
  }

  subscript(id: Int) -> String? { labels[id] }
}

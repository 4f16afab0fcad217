/// The ids of one kind (a reactor's actions, its effects, or a session's reactors) that the
/// input used, and those it may have used where it is incomplete (before a window, in a gap):
/// what a reference to an id may name.
///
/// Ids are numbered by counters, so they increase in the order their events appear: the ids
/// seen are kept as runs of consecutive ids (one run, plus one per id skipped), not one by one.
/// Where events may be missing, ids from the last one seen up are open until the next id
/// seen: a reference into them is accepted, and when that next id turns out not to be above
/// every id referenced there, the reference named the future, which is reported then.
struct SeenIDs {
  /// A run of consecutive ids seen; `offset` is the index of the first one's value in
  /// ``values``.
  private struct Run {
    var first: Int
    var last: Int
    var offset: Int
  }

  /// A reference into the open range that named an id not seen yet.
  struct Claim: Equatable {
    /// The id named.
    var id: Int
    /// The `seq` of the event that named it.
    var sequence: Int
    /// Its line.
    var line: Int
  }

  private var runs: [Run] = []
  /// With ``storesValues``, one value per id seen, in order (an effect's action).
  private var values: [Int] = []
  private let storesValues: Bool
  /// Closed ranges of ids the input may have lost, in increasing order.
  private var missing: [ClosedRange<Int>] = []
  /// The first id of the open range of ids that may be missing, if any.
  private var openFrom: Int?
  /// The largest id named in the open range so far.
  private(set) var claim: Claim?

  /// No id seen.
  /// - Parameter storesValues: Whether each id seen keeps a value (``value(of:)``).
  init(storesValues: Bool = false) {
    self.storesValues = storesValues
  }

  /// The largest id seen, if any.
  var last: Int? { runs.last?.last }

  /// Whether `id` was seen.
  func contains(_ id: Int) -> Bool {
    run(containing: id) != nil
  }

  /// The value kept with `id`, when it was seen.
  func value(of id: Int) -> Int? {
    guard storesValues, let run = run(containing: id) else { return nil }
    return values[run.offset + (id - run.first)]
  }

  /// Whether `id` may belong to an event the input lost: in a range that may be missing,
  /// or in the open range (then the claim is noted, to be checked when the next id is seen).
  mutating func mayBeMissing(_ id: Int, sequence: Int, line: Int) -> Bool {
    guard id >= 1, !contains(id) else { return false }
    if let openFrom, id >= openFrom {
      if claim.map({ id > $0.id }) ?? true {
        claim = Claim(id: id, sequence: sequence, line: line)
      }
      return true
    }
    return missing.contains { $0.contains(id) }
  }

  /// Whether a reference may name `id`: seen, or possibly missing.
  mutating func admits(_ id: Int, sequence: Int, line: Int) -> Bool {
    contains(id) || mayBeMissing(id, sequence: sequence, line: line)
  }

  /// From here on, ids above the last one seen may be missing until the next one is seen:
  /// at a gap, and at the start of a window for what came before it.
  mutating func openMissing() {
    if openFrom == nil { openFrom = (last ?? 0) + 1 }
  }

  /// What ``insert(_:value:)`` found wrong.
  enum Problem: Equatable {
    /// The id is not above the last one seen.
    case notIncreasing(last: Int)
    /// An earlier reference named this id or a later one as missing: it named the future.
    case namedBefore(Claim)
  }

  /// Notes an id seen, with its value; it must be above every id seen.
  /// - Returns: What is wrong with it, if anything; the id is noted only when it increases.
  mutating func insert(_ id: Int, value: Int = 0) -> Problem? {
    if let last, id <= last { return .notIncreasing(last: last) }
    var problem: Problem?
    if let openFrom {
      if id > openFrom { missing.append(openFrom...(id - 1)) }
      self.openFrom = nil
      if let claim, claim.id >= id { problem = .namedBefore(claim) }
      claim = nil
    }
    if let index = runs.indices.last, runs[index].last == id - 1 {
      runs[index].last = id
    } else {
      runs.append(Run(first: id, last: id, offset: values.count))
    }
    if storesValues { values.append(value) }
    return problem
  }

  private func run(containing id: Int) -> Run? {
    var low = 0
    var high = runs.count
    while low < high {
      let middle = (low + high) / 2
      if runs[middle].last < id {
        low = middle + 1
      } else {
        high = middle
      }
    }
    guard low < runs.count, runs[low].first <= id else { return nil }
    return runs[low]
  }
}

import ReactorLiveRecording
import ReactorTracing

/// The commands on their way to apps (issue 43): which streams' apps accept control, the
/// orders each has not collected yet, and who waits for each order's outcome.
///
/// An app that accepts control says so in each batch (``LiveProtocol/controlHeader``) and
/// collects its stream's orders in the answer, or asks for them on a connection of its own
/// (``LiveProtocol/ordersPath(_:)``), where the request waits here until an order comes; it
/// posts their outcomes later on. A command whose app reports nothing within ``timeout``
/// fails.
actor CommandDesk {
  /// How long a command waits for its app's outcome.
  static let timeout = Duration.seconds(5)
  /// The most commands one connection may send in ``ratePeriod``.
  static let rateLimit = 20
  /// The period of ``rateLimit``.
  static let ratePeriod = Duration.seconds(1)

  private var controllable: Set<String> = []
  private var queued: [String: [JSONValue]] = [:]
  private var waiting: [Int: (stream: String, continuation: CheckedContinuation<String?, Never>)] =
    [:]
  private var nextOrder = 1
  private var recent: [Int: [ContinuousClock.Instant]] = [:]
  /// Apps' orders requests waiting for an order, by number.
  private var pollers:
    [Int: (stream: String, continuation: CheckedContinuation<[JSONValue], Never>)] = [:]
  private var nextPoller = 1

  /// Whether stream `id`'s app said it accepts control.
  func accepts(_ id: String) -> Bool { controllable.contains(id.lowercased()) }

  /// The streams whose apps accept control, sorted.
  var controllableStreams: [String] { controllable.sorted() }

  /// Records that stream `id`'s app accepts control; returns the orders it has not collected.
  func collect(for id: String) -> [JSONValue] {
    let key = id.lowercased()
    controllable.insert(key)
    return queued.removeValue(forKey: key) ?? []
  }

  /// Records that stream `id`'s app accepts control; returns the orders it has not collected,
  /// or, when there are none, waits at most `wait` for one: an order queued meanwhile is
  /// handed over at once.
  func awaitOrders(for id: String, wait: Duration) async -> [JSONValue] {
    let orders = collect(for: id)
    guard orders.isEmpty, wait > .zero else { return orders }
    let number = nextPoller
    nextPoller += 1
    return await withCheckedContinuation { continuation in
      pollers[number] = (id.lowercased(), continuation)
      Task {
        try? await Task.sleep(for: wait)
        self.endPoll(number)
      }
    }
  }

  private func endPoll(_ number: Int) {
    pollers.removeValue(forKey: number)?.continuation.resume(returning: [])
  }

  /// Hands stream `key`'s queued orders to an orders request waiting for them, if any.
  private func handOver(to key: String) {
    guard let number = pollers.first(where: { $0.value.stream == key })?.key,
      let poller = pollers.removeValue(forKey: number)
    else { return }
    poller.continuation.resume(returning: queued.removeValue(forKey: key) ?? [])
  }

  /// Whether connection `number` may send one more command now (and counts it).
  func allows(connection number: Int, at now: ContinuousClock.Instant = .now) -> Bool {
    if recent.count > 1024 {
      // Connections that sent nothing lately: forget them, so the table stays small.
      recent = recent.filter { _, times in times.contains { now - $0 < Self.ratePeriod } }
    }
    var times = recent[number, default: []].filter { now - $0 < Self.ratePeriod }
    guard times.count < Self.rateLimit else {
      recent[number] = times
      return false
    }
    times.append(now)
    recent[number] = times
    return true
  }

  /// Queues `order` (without its id) for stream `id`'s app and waits for its outcome.
  /// - Returns: Why the app did not take it, or `nil` once it took it.
  func submit(_ order: JSONObject, to id: String) async -> String? {
    let key = id.lowercased()
    let number = nextOrder
    nextOrder += 1
    var order = order
    order["id"] = .int(Int64(number))
    queued[key, default: []].append(.object(order))
    return await withCheckedContinuation { continuation in
      waiting[number] = (key, continuation)
      handOver(to: key)
      Task {
        try? await Task.sleep(for: Self.timeout)
        self.expire(number)
      }
    }
  }

  private func expire(_ number: Int) {
    guard let entry = waiting.removeValue(forKey: number) else { return }
    queued[entry.stream]?.removeAll { $0["id"]?.intValue == number }
    entry.continuation.resume(
      returning: "the app did not take the command within \(Self.timeout.components.seconds) s")
  }

  /// Hands the outcomes stream `id`'s app reported to whoever waits for them; an outcome
  /// for an order of another stream is ignored.
  func complete(_ outcomes: [JSONValue], from id: String) {
    let key = id.lowercased()
    for outcome in outcomes {
      guard let number = outcome["id"]?.intValue, let entry = waiting[number],
        entry.stream == key
      else { continue }
      waiting[number] = nil
      let error = outcome["error"].map { $0.stringValue ?? "the app failed to take it" }
      entry.continuation.resume(returning: error.map { String($0.prefix(2000)) })
    }
  }

  /// Fails every command waiting for stream `id`, whose app will take no more.
  func ended(_ id: String) {
    let key = id.lowercased()
    controllable.remove(key)
    queued[key] = nil
    for (number, poller) in pollers where poller.stream == key {
      pollers[number] = nil
      poller.continuation.resume(returning: [])
    }
    for (number, entry) in waiting where entry.stream == key {
      waiting[number] = nil
      entry.continuation.resume(returning: "the stream '\(key)' has ended")
    }
  }
}

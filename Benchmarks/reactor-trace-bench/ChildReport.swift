/// What a measurement in a child process reports to the driver: one line on standard output.
///
/// The line is `RESULT seconds=0.25 units=1000000 bytes=123 events=2000000 peakBytes=…`,
/// with the optional fields present only when measured.
struct ChildReport: Equatable {
  /// The timed part, in seconds.
  var seconds: Double
  /// What the throughput counts: actions, events or replay steps.
  var units: Int
  /// The bytes written or read, for MB/s and bytes per event.
  var bytes: Int?
  /// The trace events written or read.
  var events: Int?
  /// The mean size in bytes of the state encoded whole, once per mutation.
  var fullStateBytes: Double?
  /// The child's own peak resident set size in bytes, measured as it finishes.
  var peakBytes: Int?
  /// The events a recorder with the drop policy dropped.
  var dropped: Int?
  /// The most events a killed recording lost.
  var lost: Int?
  /// The time those events spanned, in milliseconds.
  var lostMilliseconds: Double?
  /// Live latency percentiles, in milliseconds: p50, p95 and p99 of the time from each
  /// event's `reduce` to the page showing it.
  var latencyMilliseconds: (p50: Double, p95: Double, p99: Double)?

  /// The line's first word.
  static let marker = "RESULT"

  /// The line to print.
  var line: String {
    var fields = ["seconds=\(seconds)", "units=\(units)"]
    if let bytes { fields.append("bytes=\(bytes)") }
    if let events { fields.append("events=\(events)") }
    if let fullStateBytes { fields.append("fullStateBytes=\(fullStateBytes)") }
    if let peakBytes { fields.append("peakBytes=\(peakBytes)") }
    if let dropped { fields.append("dropped=\(dropped)") }
    if let lost { fields.append("lost=\(lost)") }
    if let lostMilliseconds { fields.append("lostMilliseconds=\(lostMilliseconds)") }
    if let latency = latencyMilliseconds {
      fields += ["p50=\(latency.p50)", "p95=\(latency.p95)", "p99=\(latency.p99)"]
    }
    return ([Self.marker] + fields).joined(separator: " ")
  }

  /// Creates a report.
  init(
    seconds: Double, units: Int, bytes: Int? = nil, events: Int? = nil,
    fullStateBytes: Double? = nil, dropped: Int? = nil
  ) {
    self.dropped = dropped
    self.seconds = seconds
    self.units = units
    self.bytes = bytes
    self.events = events
    self.fullStateBytes = fullStateBytes
  }

  /// Parses the last report line of a child's output, or returns `nil` if there is none.
  init?(output: String) {
    guard
      let line = output.split(separator: "\n").last(where: { $0.hasPrefix(Self.marker + " ") })
    else { return nil }
    var fields: [Substring: Substring] = [:]
    for field in line.split(separator: " ").dropFirst() {
      let parts = field.split(separator: "=", maxSplits: 1)
      guard parts.count == 2 else { return nil }
      fields[parts[0]] = parts[1]
    }
    guard let seconds = fields["seconds"].flatMap({ Double($0) }),
      let units = fields["units"].flatMap({ Int($0) })
    else { return nil }
    self.init(
      seconds: seconds, units: units, bytes: fields["bytes"].flatMap { Int($0) },
      events: fields["events"].flatMap { Int($0) },
      fullStateBytes: fields["fullStateBytes"].flatMap { Double($0) },
      dropped: fields["dropped"].flatMap { Int($0) })
    peakBytes = fields["peakBytes"].flatMap { Int($0) }
    lost = fields["lost"].flatMap { Int($0) }
    lostMilliseconds = fields["lostMilliseconds"].flatMap { Double($0) }
    if let p50 = fields["p50"].flatMap({ Double($0) }),
      let p95 = fields["p95"].flatMap({ Double($0) }),
      let p99 = fields["p99"].flatMap({ Double($0) })
    {
      latencyMilliseconds = (p50, p95, p99)
    }
  }

  static func == (lhs: ChildReport, rhs: ChildReport) -> Bool {
    lhs.seconds == rhs.seconds && lhs.units == rhs.units && lhs.bytes == rhs.bytes
      && lhs.events == rhs.events && lhs.fullStateBytes == rhs.fullStateBytes
      && lhs.peakBytes == rhs.peakBytes && lhs.dropped == rhs.dropped && lhs.lost == rhs.lost
      && lhs.lostMilliseconds == rhs.lostMilliseconds
      && lhs.latencyMilliseconds.map { [$0.p50, $0.p95, $0.p99] }
        == rhs.latencyMilliseconds.map { [$0.p50, $0.p95, $0.p99] }
  }
}

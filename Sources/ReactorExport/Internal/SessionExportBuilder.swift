import ReactorTracing

/// An export format as one builder fed a session's events in order: the shape that
/// ``PerfettoTrace`` and ``OTLPTrace`` share, driven by ``export(_:to:)``.
///
/// A trace of one reactor is read as a session of one reactor (id 1, introduced at `seq` 0),
/// so a builder has one path for both; where a format shows a trace of one reactor otherwise,
/// it decides value by value from ``SessionHeader/isTraceOfOneReactor``.
protocol SessionExportBuilder {
  /// What the export made, once the session is read.
  associatedtype Summary

  /// A reactor entered the session.
  mutating func introduce(_ introduction: ReactorIntroduction, sequence: Int, time: Duration)
  /// An event of a live reactor, whose state after it is `state` (`nil` when not rebuilt).
  mutating func add(
    _ kind: TraceEvent.Kind, of reactor: Int, sequence: Int, time: Duration,
    state: TraceHeader.State?)
  /// A reactor left the session.
  mutating func release(_ reactor: Int, sequence: Int, time: Duration)
  /// The recorder dropped events here.
  mutating func gap(_ gap: TraceEvent.Gap, sequence: Int, time: Duration)
  /// The recording was closed.
  mutating func end(_ end: SessionEvent.End, sequence: Int, time: Duration)
  /// Gives `output` what is ready to go out, after each event.
  mutating func write(to output: ([UInt8]) -> Void)
  /// Gives `output` the rest, once the last event is read.
  /// - Parameters:
  ///   - warnings: What the reader noticed without failing.
  ///   - output: Takes each piece in order.
  /// - Returns: What the export made.
  mutating func finish(warnings: [TraceWarning], to output: ([UInt8]) -> Void) -> Summary
}

extension SessionExportBuilder {
  func release(_ reactor: Int, sequence: Int, time: Duration) {}
  func gap(_ gap: TraceEvent.Gap, sequence: Int, time: Duration) {}
  func end(_ end: SessionEvent.End, sequence: Int, time: Duration) {}
  func write(to output: ([UInt8]) -> Void) {}

  /// Reads the rest of `session` into this builder, giving `output` the export piece by
  /// piece as it is made.
  /// - Parameters:
  ///   - session: A reader that has read no event yet.
  ///   - output: Takes each piece in order.
  /// - Returns: What the export made.
  /// - Throws: ``TraceReadError`` when the session cannot be read; `output` then holds an
  ///   export cut short.
  consuming func export(
    _ session: SessionReader, to output: ([UInt8]) -> Void
  ) throws(TraceReadError) -> Summary {
    var builder = self
    while let event = try session.next() {
      let (sequence, time) = (event.sequence, event.time)
      switch event.kind {
      case .introduced(let introduction):
        builder.introduce(introduction, sequence: sequence, time: time)
      case .reactor(let reactor, let kind):
        builder.add(
          kind, of: reactor, sequence: sequence, time: time,
          state: session.currentState(of: reactor))
      case .released(let reactor):
        builder.release(reactor, sequence: sequence, time: time)
      case .gap(let gap):
        builder.gap(gap, sequence: sequence, time: time)
      case .end(let end):
        builder.end(end, sequence: sequence, time: time)
      }
      builder.write(to: output)
    }
    return builder.finish(warnings: session.warnings, to: output)
  }
}

/// Something a reader noticed that did not stop it.
public enum TraceWarning: Hashable, Sendable {
  /// The last line was cut off, as when the app crashed while writing; every complete event
  /// before it was read.
  case tornLastLine(line: Int, byteCount: Int)
  /// The trace has no end line: the recording did not stop normally (a crash, or it is still
  /// being written).
  case missingEnd(lastLine: Int)
  /// Lines of an event kind this reader does not know (from a newer minor version) were
  /// skipped.
  case unknownEventKind(String, firstLine: Int)
  /// The recorded run was not finished: these effects had started and not ended when the
  /// trace ends, at `time` on line `line` (its end line, or its last complete line).
  case unfinishedEffects(line: Int, time: Duration, effects: [TraceEvent.EffectStart])
  /// The recorder dropped `count` events at this line to stay within its memory budget
  /// (a ``TraceEvent/Gap``): the trace is incomplete from here on.
  case eventsDropped(count: Int, line: Int)
  /// The recorded session was not finished: these effects, of these reactors, had started and
  /// not ended when the session ends, at `time` on line `line`.
  case unfinishedSessionEffects(line: Int, time: Duration, effects: [SessionEvent.RunningEffect])
}

extension TraceWarning: CustomStringConvertible {
  /// One line saying what was noticed.
  public var description: String {
    switch self {
    case .tornLastLine(let line, let byteCount):
      "line \(line) is incomplete (\(byteCount) bytes, cut off while writing); "
        + "read every event before it"
    case .missingEnd(let lastLine):
      "the trace has no end line after line \(lastLine): the recording did not stop normally"
    case .unknownEventKind(let kind, let firstLine):
      "skipped events of unknown kind '\(kind)' (first at line \(firstLine))"
    case .unfinishedEffects(let line, let time, let effects):
      "line \(line): the run was not finished: the trace ends at \(time.traceSeconds) with "
        + (effects.count == 1 ? "1 effect" : "\(effects.count) effects") + " still running ("
        + effects.map { effect in
          "effect \(effect.effect)" + (effect.name.map { " '\($0)'" } ?? "")
            + " of action \(effect.action)"
        }.joined(separator: ", ") + ")"
    case .unfinishedSessionEffects(let line, let time, let effects):
      "line \(line): the run was not finished: the session ends at \(time.traceSeconds) with "
        + (effects.count == 1 ? "1 effect" : "\(effects.count) effects") + " still running ("
        + effects.map { running in
          "effect \(running.start.effect)" + (running.start.name.map { " '\($0)'" } ?? "")
            + " of action \(running.start.action) of reactor \(running.reactor)"
        }.joined(separator: ", ") + ")"
    case .eventsDropped(let count, let line):
      "the recorder dropped \(count) event\(count == 1 ? "" : "s") at line \(line) to stay "
        + "within its memory budget: the trace is incomplete from there on"
    }
  }
}

extension Duration {
  /// Seconds as a trace report writes them, in plain decimals without trailing zeros:
  /// `1.5 s`, `0 s`, `0.000042934 s`.
  var traceSeconds: String {
    let nanoseconds = traceNanoseconds
    let whole = nanoseconds / 1_000_000_000
    var fraction = String(nanoseconds % 1_000_000_000)
    fraction = String(repeating: "0", count: 9 - fraction.count) + fraction
    while fraction.hasSuffix("0") { fraction.removeLast() }
    return "\(whole)" + (fraction.isEmpty ? "" : "." + fraction) + " s"
  }
}

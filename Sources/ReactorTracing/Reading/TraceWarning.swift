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
    }
  }
}

extension Duration {
  /// Seconds as a trace report writes them: `1.5 s`.
  var traceSeconds: String {
    let nanoseconds = traceNanoseconds
    let milliseconds = nanoseconds / 1_000_000
    if milliseconds * 1_000_000 == nanoseconds {
      let text = String(Double(milliseconds) / 1000)
      return (text.hasSuffix(".0") ? String(text.dropLast(2)) : text) + " s"
    }
    return "\(Double(nanoseconds) / 1e9) s"
  }
}

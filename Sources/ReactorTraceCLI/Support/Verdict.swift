import ReactorReplay
import ReactorTracing

/// What a replay or a diff found, as the one JSON object their `--json` prints:
/// `{"result":"match",…}` or `{"result":"divergence",…}`, with the fields that apply.
struct Verdict {
  /// A match, or the first divergence.
  enum Outcome {
    /// Nothing differs; how many steps were checked, when the command counts them.
    case match(checked: Int?)
    /// The first difference: its `seq` when it has one, and its report.
    case divergence(sequence: Int?, report: String)
  }

  /// What was found.
  var outcome: Outcome
  /// The replay's mode (`structural`, `reduce`, `mutate`, …).
  var mode: String?
  /// The reactor: its type name (a replay's match) or its id in the session (a diff's
  /// divergence).
  var reactor: JSONValue?
  /// The warnings the reading noticed, each one's text.
  var warnings: [String] = []
  /// Whether warnings mark the trace `incomplete` (a replay's; a diff names the file in each
  /// warning instead).
  var marksIncomplete = false
  /// How the reactor's types changed since the recording, in ways the trace survives.
  var schemaChanges: [SchemaChange] = []
  /// The effects played back from the recording (`--effects recorded`); `nil` when they ran.
  var playedEffects: [PlayedEffect]?

  /// The verdict as one JSON line.
  var serialized: String {
    var result = JSONObject()
    switch outcome {
    case .match(let checked):
      result["result"] = "match"
      if let checked { result["checked"] = .int(Int64(checked)) }
    case .divergence(let sequence, let report):
      result["result"] = "divergence"
      if let sequence { result["seq"] = .int(Int64(sequence)) }
      result["report"] = .string(report)
    }
    if let mode { result["mode"] = .string(mode) }
    if let reactor { result["reactor"] = reactor }
    if !warnings.isEmpty {
      if marksIncomplete { result["incomplete"] = true }
      result["warnings"] = .array(warnings.map(JSONValue.string))
    }
    if !schemaChanges.isEmpty {
      result["schemaChanges"] = .array(schemaChanges.map { .string($0.description) })
    }
    if let playedEffects {
      result["effects"] = "recorded"
      result["playedEffects"] = .array(
        playedEffects.map { effect in
          var object = JSONObject()
          if let reactor = effect.reactor { object["reactor"] = .int(Int64(reactor)) }
          object["effect"] = .int(Int64(effect.effect))
          if let name = effect.name { object["name"] = .string(name) }
          if effect.isCarriedOver { object["alreadyRunning"] = true }
          return .object(object)
        })
    }
    return JSONValue.object(result).serializedString
  }
}

import ReactorTracing

/// The labels a page shows for a piece of a stream, without module prefixes.
///
/// Each action's and mutation's label that ``ReactorTracing/LabelText`` changes, keyed by the
/// event's `seq`. The page's lines stay as the app recorded them (a saved stream is the trace,
/// byte for byte); this goes beside them, as the offline page's `shown` slot does.
enum ShownLabels {
  /// The `seq` → shown label pairs of `lines`, trace lines each ending in a newline, read back
  /// from a stream's file.
  ///
  /// An empty object when no label changes; a line that is not an event's JSON is passed over.
  static func of(_ lines: [UInt8]) -> JSONValue {
    var members: [(String, JSONValue)] = []
    for line in lines.split(separator: UInt8(ascii: "\n")) {
      // Only an action's or a mutation's line has a label; the others are left unparsed.
      guard line.firstRange(of: #""label":"#.utf8) != nil,
        let event = try? JSONValue(parsing: line), let member = member(of: event)
      else { continue }
      members.append(member)
    }
    return .object(JSONObject(members))
  }

  /// The `seq` and shown label of `event`, when it is an action or a mutation whose label the
  /// rule changes.
  static func member(of event: JSONValue) -> (String, JSONValue)? {
    guard case .object(let event) = event, case .string(let kind)? = event["kind"],
      kind == "action" || kind == "mutation", case .int(let seq)? = event["seq"],
      case .string(let label)? = event["label"]
    else { return nil }
    let shown = LabelText.withoutModules(label)
    return shown == label ? nil : (String(seq), .string(shown))
  }
}

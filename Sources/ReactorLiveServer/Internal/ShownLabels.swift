import ReactorTracing

/// The labels a page shows for a piece of a stream, without module prefixes.
///
/// Each action's and mutation's label that ``ReactorTracing/LabelText`` changes, keyed by the
/// event's `seq`. The page's lines stay as the app recorded them (a saved stream is the trace,
/// byte for byte); this goes beside them, as the offline page's `shown` slot does.
enum ShownLabels {
  /// The `seq` → shown label pairs of `lines`, trace lines each ending in a newline.
  ///
  /// An empty object when no label changes; a line that is not an event's JSON is passed over.
  static func of(_ lines: [UInt8]) -> JSONValue {
    var members: [(String, JSONValue)] = []
    let marker = Array(#""label":"#.utf8)
    var start = lines.startIndex
    while start < lines.endIndex {
      let end = lines[start...].firstIndex(of: UInt8(ascii: "\n")) ?? lines.endIndex
      let line = lines[start..<end]
      start = end + 1
      // Only an action's or a mutation's line has a label; most others are left unparsed.
      guard contains(line, marker), let value = try? JSONValue(parsing: line),
        case .object(let event) = value, case .string(let kind)? = event["kind"],
        kind == "action" || kind == "mutation", case .int(let seq)? = event["seq"],
        case .string(let label)? = event["label"]
      else { continue }
      let shown = LabelText.withoutModules(label)
      if shown != label { members.append((String(seq), .string(shown))) }
    }
    return .object(JSONObject(members))
  }

  private static func contains(_ line: ArraySlice<UInt8>, _ marker: [UInt8]) -> Bool {
    guard line.count >= marker.count else { return false }
    var index = line.startIndex
    while index <= line.endIndex - marker.count {
      if line[index] == marker[0], line[index..<(index + marker.count)].elementsEqual(marker) {
        return true
      }
      index += 1
    }
    return false
  }
}

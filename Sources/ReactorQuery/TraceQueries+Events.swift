import ReactorTracing

extension TraceQueries {
  /// `events`: the events the filters let through, as the inspector's list shows them.
  func events(_ arguments: ToolArguments) throws(QueryError) -> QueryAnswer {
    let index = try index(arguments)
    let reactors = try index.reactorIDs(matching: arguments.reactor())
    let kinds = try arguments.choice(
      "kind",
      [
        "action", "effectStart", "effectEnd", "effect", "mutation", "streamEnd", "reactor",
        "release", "gap", "end",
      ])
    let text = try arguments.string("text", maximumLength: 1000).map(InspectorText.needle)
    let path = try arguments.string("path", maximumLength: 4096).map { text throws(QueryError) in
      do throws(StatePathError) {
        return try StatePath(parsing: text)
      } catch {
        throw QueryError.invalidArgument(name: "path", reason: "is not a state path: \(error)")
      }
    }
    let from = try arguments.integer("from", in: 0...Int(Int64.max))
    let to = try arguments.integer("to", in: 0...Int(Int64.max))
    let limit = try arguments.integer("limit", in: 1...500) ?? 50
    if let from, let to, to < from {
      throw .invalidArgument(name: "to", reason: "must not be before 'from'")
    }
    let titles = index.reactors.mapValues { Array(($0.title + " " + $0.type).utf8) }
    var kindNames: [Int: [UInt8]] = [:]
    for kind in 0...9 {
      kindNames[kind] = IndexRecord.Kind(rawValue: Int64(kind)).map { Array($0.name.utf8) }
    }

    func passes(_ number: Int, _ record: IndexRecord) -> Bool {
      passes(number, record, texts: nil, base: 0)
    }
    func passes(_ number: Int, _ record: IndexRecord, texts: [UInt8]?, base: Int) -> Bool {
      if let from, record.sequence < Int64(from) { return false }
      if let to, record.sequence > Int64(to) { return false }
      if let kinds {
        let kind = record.recordKind.name
        if !(kind == kinds || kinds == "effect" && (kind == "effectStart" || kind == "effectEnd")) {
          return false
        }
      }
      if let reactors, !reactors.contains(Int(record.reactor)) { return false }
      if let text {
        let label: ArraySlice<UInt8>
        let note: ArraySlice<UInt8>
        if let texts {
          label = index.bytes(texts, base, record.labelOffset, record.labelCount)
          note = index.bytes(texts, base, record.noteOffset, record.noteCount)
        } else {
          label = ArraySlice(index.label(of: record).utf8)
          note = ArraySlice((index.note(of: record) ?? "").utf8)
        }
        let kind = kindNames[Int(record.kind)] ?? []
        let title = titles[Int(record.reactor)] ?? []
        if !InspectorText.contains(label, text), !InspectorText.contains(note, text),
          !InspectorText.contains(kind[...], text), !InspectorText.contains(title[...], text)
        {
          return false
        }
      }
      return true
    }

    // The records within from…to, found by binary search (seq grows along the file).
    let first = from.map { index.firstRecordNumber(atOrAfter: $0) } ?? 0
    let end =
      to.map {
        $0 == Int(Int64.max) ? index.eventCount : index.firstRecordNumber(atOrAfter: $0 + 1)
      }
      ?? index.eventCount
    var shown: [(Int, IndexRecord, before: JSONValue??, after: JSONValue??)] = []
    var matched = 0
    var more = false
    if let path {
      let found = try index.changes(
        at: path, reactors: reactors, records: first..<end, limit: limit, accept: passes)
      shown = found.changes.map { ($0.number, $0.record, .some($0.before), .some($0.after)) }
      matched = shown.count
      more = found.more
    } else {
      index.forEachRecord(from: first, reading: text == nil ? nil : .labels) {
        number, record, texts, base in
        guard number < end else { return false }
        guard passes(number, record, texts: texts, base: base) else { return true }
        matched += 1
        if shown.count < limit { shown.append((number, record, nil, nil)) }
        return true
      }
      more = matched > shown.count
    }

    var lines: [String] = []
    var items: [JSONValue] = []
    for (_, record, before, after) in shown {
      var item = eventJSON(record, in: index)
      var line = eventLine(record, in: index)
      if let path, let before, let after {
        item["path"] = .string(path.description)
        item["before"] = before ?? .null
        item["after"] = after ?? .null
        line += "; \(path): \(Self.text(before)) → \(Self.text(after))"
      }
      items.append(.object(item))
      lines.append(line)
    }
    let count =
      path == nil
      ? "\(matched) events match"
      : "\(shown.count) changes of \(path!)" + (more ? " (more follow)" : "")
    var header = "\(index.name): \(count)"
    if path == nil, more {
      header += "; the first \(shown.count) shown (raise limit, or narrow with from/to)"
    }
    var structured = JSONObject()
    structured["trace"] = .string(index.name)
    structured["matched"] = .int(Int64(matched))
    structured["more"] = .bool(more)
    structured["events"] = .array(items)
    return QueryAnswer(
      text: ([header] + lines).joined(separator: "\n"), structured: .object(structured))
  }

  /// One event as JSON.
  func eventJSON(_ record: IndexRecord, in index: TraceIndex) -> JSONObject {
    var item = JSONObject()
    item["seq"] = .int(record.sequence)
    item["t"] = .int(record.time)
    if record.recordKind != .gap, record.recordKind != .end {
      item["reactor"] = .int(record.reactor)
      if let info = index.reactors[Int(record.reactor)] {
        item["reactorType"] = .string(info.type)
        if let name = info.name { item["reactorName"] = .string(name) }
      }
    }
    item["kind"] = .string(record.recordKind.name)
    item["label"] = .string(index.label(of: record))
    if let cause = causeText(record, in: index) { item["cause"] = .string(cause) }
    return item
  }

  /// One event as a line: `seq 12 at 0.300 s, reactor 2 (TaskListReactor 'list'): mutation
  /// setTasks(…), caused by …`.
  func eventLine(_ record: IndexRecord, in index: TraceIndex) -> String {
    var line = "seq \(record.sequence) at \(Self.seconds(record.time))"
    if record.recordKind != .gap, record.recordKind != .end {
      line += ", " + index.reactorTitle(Int(record.reactor))
    }
    line += ": \(record.recordKind.name) \(index.label(of: record))"
    if let cause = causeText(record, in: index) { line += " (\(cause))" }
    return line
  }

  /// What an event's record says caused it, in words.
  func causeText(_ record: IndexRecord, in index: TraceIndex) -> String? {
    func named(_ number: Int64, _ what: String, _ id: Int64) -> String {
      guard number >= 0, let cause = index.record(Int(number)) else {
        return "\(what) \(id)"
      }
      return "\(what) \(id) (\(index.label(of: cause)), seq \(cause.sequence))"
    }
    let stream = index.note(of: record) ?? "?"
    switch record.recordLink {
    case .none:
      return nil
    case .user:
      return "sent by the user"
    case .externalStream:
      return "element of stream \(stream), from outside the app"
    case .action:
      return record.recordKind == .effectStart
        ? "started by " + named(record.causeRecord, "action", record.causeAction)
        : "returned for " + named(record.causeRecord, "action", record.causeAction)
    case .effect:
      return record.recordKind == .effectEnd
        ? "end of " + named(record.causeRecord, "effect", record.causeEffect)
        : "sent by " + named(record.causeRecord, "effect", record.causeEffect)
          + " of action \(record.causeAction)"
    case .origin:
      let target =
        record.causeEffect > 0
        ? named(record.causeRecord, "effect", record.causeEffect)
          + " of action \(record.causeAction)"
        : named(record.causeRecord, "action", record.causeAction)
      let via = record.recordKind == .mutation ? "element of stream \(stream), " : ""
      return via + "from " + index.reactorTitle(Int(record.causeReactor)) + ", " + target
    case .publisher:
      let target =
        record.causeEffect > 0
        ? named(record.causeRecord, "effect", record.causeEffect)
          + " of action \(record.causeAction)"
        : named(record.causeRecord, "action", record.causeAction)
      return "element of stream \(stream), published by its own " + target
    case .createdDuring:
      return "created by " + index.reactorTitle(Int(record.causeReactor))
        + (record.causeAction > 0 ? " during seq \(record.causeAction)" : "")
    }
  }

  /// Nanoseconds as seconds: `1.250 s`.
  static func seconds(_ nanoseconds: Int64) -> String {
    let milliseconds = nanoseconds / 1_000_000
    let fraction = String(milliseconds % 1000)
    return
      "\(milliseconds / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction) s"
  }

  /// A value in an answer's text: its JSON, or `(none)`.
  static func text(_ value: JSONValue?) -> String {
    value.map { String(decoding: $0.serialized, as: UTF8.self) } ?? "(none)"
  }
}

import ReactorTracing

extension TraceQueries {
  /// `state_at`: every live reactor's state after an event, or one reactor's.
  func stateAt(_ arguments: ToolArguments) throws(QueryError) -> QueryAnswer {
    let index = try index(arguments)
    let sequence = try arguments.requiredInteger("seq", in: 0...Int(Int64.max))
    let reactor = try arguments.reactor().map { text throws(QueryError) in
      try index.reactorID(text)
    }
    let (record, all) = try index.states(at: sequence)
    let states = all.filter { reactor == nil || $0.reactor == reactor }
    if let reactor, states.isEmpty {
      throw .noSuchReactor(
        "\(reactor)",
        known: "it is not live after seq \(sequence) (introduced at seq "
          + "\(index.reactors[reactor]?.introducedAt ?? 0)"
          + (index.reactors[reactor]?.releasedAt.map { ", released at seq \($0)" } ?? "") + ")")
    }
    var lines = [
      "\(index.name), after seq \(sequence)"
        + (record.map {
          " (\($0.recordKind.name) \(index.label(of: $0)), at \(Self.seconds($0.time)))"
        }
          ?? ", before the first event") + ":"
    ]
    var items: [JSONValue] = []
    for state in states {
      let json: JSONValue =
        switch state.state {
        case .json(let json): json
        case .description(let text): .string(text)
        }
      lines.append("\(index.reactorTitle(state.reactor)): \(Self.text(json))")
      var item = JSONObject()
      item["reactor"] = .int(Int64(state.reactor))
      if let info = index.reactors[state.reactor] {
        item["reactorType"] = .string(info.type)
        if let name = info.name { item["reactorName"] = .string(name) }
      }
      item["state"] = json
      items.append(.object(item))
    }
    if states.isEmpty { lines.append("(no reactor is live)") }
    var structured = JSONObject()
    structured["trace"] = .string(index.name)
    structured["seq"] = .int(Int64(sequence))
    if let record { structured["t"] = .int(record.time) }
    structured["states"] = .array(items)
    return QueryAnswer(text: lines.joined(separator: "\n"), structured: .object(structured))
  }

  /// `why`: the chain of causes from an event back to the user's tap or an outside stream.
  func why(_ arguments: ToolArguments) throws(QueryError) -> QueryAnswer {
    let index = try index(arguments)
    let sequence = try arguments.requiredInteger("seq", in: 0...Int(Int64.max))
    guard var number = index.recordNumber(ofSequence: sequence) else {
      throw .noSuchEvent(sequence: sequence, range: index.sequenceRange)
    }
    var steps: [JSONValue] = []
    var lines: [String] = []
    var origin = ""
    var seen = Set<Int>()
    while let record = index.record(number), seen.insert(number).inserted, seen.count <= 10_000 {
      var step = eventJSON(record, in: index)
      lines.append((lines.isEmpty ? "" : "← ") + eventLine(record, in: index))
      var next: Int?
      switch record.recordLink {
      case .none:
        origin = "no recorded cause"
      case .user:
        origin = "the user: a sent action that no reactor sent (a tap, a view's event)"
      case .externalStream:
        origin = "an element of stream \(index.note(of: record) ?? "?"), from outside the app"
      case .createdDuring:
        if record.causeAction > 0 {
          next = index.recordNumber(ofSequence: Int(record.causeAction))
        }
        if next == nil {
          origin = "the reactor's creation by " + index.reactorTitle(Int(record.causeReactor))
        }
      case .action, .effect, .origin, .publisher:
        if record.causeRecord >= 0 {
          next = Int(record.causeRecord)
        } else {
          origin =
            "its cause (\(index.reactorTitle(Int(record.causeReactor))), action \(record.causeAction)"
            + (record.causeEffect > 0 ? ", effect \(record.causeEffect)" : "")
            + ") is not in the trace: dropped in a gap, or before the recording's window"
        }
      }
      step["number"] = nil
      steps.append(.object(step))
      guard let next else { break }
      number = next
    }
    lines.append("origin: \(origin)")
    var structured = JSONObject()
    structured["trace"] = .string(index.name)
    structured["seq"] = .int(Int64(sequence))
    structured["chain"] = .array(steps)
    structured["origin"] = .string(origin)
    return QueryAnswer(
      text: "\(index.name): why seq \(sequence) happened, from it back to its origin:\n"
        + lines.joined(separator: "\n"),
      structured: .object(structured))
  }

  /// `history`: every change of the value at a state path, with what caused it.
  func history(_ arguments: ToolArguments) throws(QueryError) -> QueryAnswer {
    let index = try index(arguments)
    let text = try arguments.requiredString("path")
    let path: StatePath
    do throws(StatePathError) {
      path = try StatePath(parsing: text)
    } catch {
      throw .invalidArgument(name: "path", reason: "is not a state path: \(error)")
    }
    let reactors = try arguments.reactor().map { text throws(QueryError) -> Set<Int> in
      [try index.reactorID(text)]
    }
    let limit = 200
    let found = try index.changes(
      at: path, reactors: reactors, records: 0..<index.eventCount, limit: limit)
    var lines = [
      "\(index.name): \(found.changes.count) change\(found.changes.count == 1 ? "" : "s") of \(path)"
        + (found.more ? " (the first \(limit); more follow)" : "")
    ]
    var items: [JSONValue] = []
    for change in found.changes {
      var item = eventJSON(change.record, in: index)
      item["before"] = change.before ?? .null
      item["after"] = change.after ?? .null
      items.append(.object(item))
      lines.append(
        "seq \(change.record.sequence) at \(Self.seconds(change.record.time)), "
          + index.reactorTitle(Int(change.record.reactor)) + ": "
          + "\(Self.text(change.before)) → \(Self.text(change.after)) by mutation "
          + index.label(of: change.record)
          + (causeText(change.record, in: index).map { " (\($0))" } ?? ""))
    }
    var structured = JSONObject()
    structured["trace"] = .string(index.name)
    structured["path"] = .string(path.description)
    structured["more"] = .bool(found.more)
    structured["changes"] = .array(items)
    return QueryAnswer(text: lines.joined(separator: "\n"), structured: .object(structured))
  }
}

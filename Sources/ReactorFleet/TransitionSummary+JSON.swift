public import ReactorTracing

extension TransitionSummary {
  /// The line's JSON object, as `docs/fleet.md` describes it.
  public var json: JSONValue {
    .object(
      JSONObject([
        ("reactor", .string(key.reactor)),
        ("schema", .string(key.schema)),
        ("appVersion", .string(key.appVersion)),
        ("metadata", .object(JSONObject(key.metadata.map { ($0.key, .string($0.value)) }))),
        ("abstraction", .string(key.abstraction)),
        ("timeBase", .string(key.timeBase)),
        ("from", .string(key.from)),
        ("action", .string(key.action)),
        ("mutation", .string(key.mutation)),
        ("to", .string(key.to)),
        ("count", .int(Int64(count))),
        ("traces", .int(Int64(traces))),
        ("first", .int(first)),
        ("last", .int(last)),
        (
          "outcomes",
          .object(
            JSONObject([
              ("sync", .int(Int64(outcomes.sync))),
              ("finished", .int(Int64(outcomes.finished))),
              ("cancelled", .int(Int64(outcomes.cancelled))),
              ("failed", .int(Int64(outcomes.failed))),
              ("running", .int(Int64(outcomes.running))),
            ]))
        ),
      ]))
  }

  /// Reads a line back, checking every member and range.
  ///
  /// - Parameter json: One parsed summary line.
  /// - Throws: A reason, for ``FleetError/malformedSummary(path:line:reason:)``.
  public init(json: JSONValue) throws(SummaryLineProblem) {
    guard case .object(let object) = json else {
      throw SummaryLineProblem("expected an object, found \(json.kindName)")
    }
    func string(_ name: String) throws(SummaryLineProblem) -> String {
      guard let value = object[name] else { throw SummaryLineProblem("no '\(name)'") }
      guard let string = value.stringValue else {
        throw SummaryLineProblem("'\(name)' is \(value.kindName), not a string")
      }
      return string
    }
    func integer(
      _ name: String, in container: JSONObject, minimum: Int64
    ) throws(SummaryLineProblem) -> Int64 {
      guard let value = container[name] else { throw SummaryLineProblem("no '\(name)'") }
      guard case .int(let number) = value else {
        throw SummaryLineProblem("'\(name)' is not an integer that fits 64 bits")
      }
      guard number >= minimum else {
        throw SummaryLineProblem("'\(name)' is \(number), below \(minimum)")
      }
      return number
    }
    var metadata: [String: String] = [:]
    if let value = object["metadata"] {
      guard case .object(let members) = value else {
        throw SummaryLineProblem("'metadata' is \(value.kindName), not an object")
      }
      for (name, value) in members.members {
        guard let text = value.stringValue else {
          throw SummaryLineProblem("metadata '\(name)' is \(value.kindName), not a string")
        }
        metadata[name] = text
      }
    }
    let timeBase = try string("timeBase")
    guard timeBase == "unix" || timeBase == "trace" else {
      throw SummaryLineProblem("'timeBase' is '\(timeBase)', not 'unix' or 'trace'")
    }
    key = Key(
      reactor: try string("reactor"), schema: try string("schema"),
      appVersion: try string("appVersion"), metadata: metadata,
      abstraction: try string("abstraction"), timeBase: timeBase, from: try string("from"),
      action: try string("action"), mutation: try string("mutation"), to: try string("to"))
    count = Int(try integer("count", in: object, minimum: 1))
    traces = Int(try integer("traces", in: object, minimum: 1))
    first = try integer("first", in: object, minimum: 0)
    last = try integer("last", in: object, minimum: 0)
    guard first <= last else {
      throw SummaryLineProblem("'first' (\(first)) is after 'last' (\(last))")
    }
    guard case .object(let counts)? = object["outcomes"] else {
      throw SummaryLineProblem("no 'outcomes' object")
    }
    outcomes = Outcomes(
      sync: Int(try integer("sync", in: counts, minimum: 0)),
      finished: Int(try integer("finished", in: counts, minimum: 0)),
      cancelled: Int(try integer("cancelled", in: counts, minimum: 0)),
      failed: Int(try integer("failed", in: counts, minimum: 0)),
      running: Int(try integer("running", in: counts, minimum: 0)))
    let parts = [
      outcomes.sync, outcomes.finished, outcomes.cancelled, outcomes.failed,
      outcomes.running,
    ]
    var total = 0
    for part in parts {
      let (sum, overflow) = total.addingReportingOverflow(part)
      guard !overflow else { throw SummaryLineProblem("'outcomes' overflow when added up") }
      total = sum
    }
    guard total == count else {
      throw SummaryLineProblem("'outcomes' add up to \(total), not 'count' (\(count))")
    }
  }
}

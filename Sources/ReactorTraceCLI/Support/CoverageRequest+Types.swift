import ArgumentParser
import Foundation
import ReactorExploration
import ReactorTracing

extension CoverageRequest {
  /// Coverage of recordings of many reactors, per reactor type: each registered type
  /// explored from its registered factory with the actions its reactors were sent, and every
  /// reactor of the type merged, matched against it through the type's abstraction.
  @MainActor
  func runTypes(_ inputs: ExplorationInputs, output: any TextOutput) async throws -> ExitCode {
    try ExplorationRun.refuse([
      ("--reactor", reactor != nil), ("--exploration", savedExploration != nil),
      ("--graph", graph != nil), ("--key", !arguments.keys.isEmpty),
    ])
    var inputs = inputs
    try inputs.focus(on: arguments.reactorType)
    if let trace = inputs.oneReactorRecordings.first {
      throw CommandFailure.unusableInput(
        "\(trace) is the trace of one reactor, not a session: give sessions only, or traces "
          + "of one reactor only")
    }
    var types: [JSONValue] = []
    if !json {
      output.write(
        "\(traces.count) session\(traces.count == 1 ? "" : "s"): \(inputs.lanes.count) "
          + "reactors of \(inputs.types.count) types, each type's reactors merged and seen "
          + "through its abstraction")
    }
    var below: [String] = []
    var trapped = false
    for type in inputs.types {
      let count = type.lanes.count
      let merged = "\(count) reactor\(count == 1 ? "" : "s")\(count == 1 ? "" : " merged")"
      let exploration: Exploration
      switch await ExplorationRun.explore(type, in: inputs, arguments: arguments) {
      case .explored(let explored): exploration = explored
      case .skipped(let reason):
        if json {
          types.append(
            .object(
              JSONObject([
                ("reactor", .string(type.type)), ("reactors", .int(Int64(count))),
                ("notExplored", .string(reason)),
              ])))
        } else {
          output.write("\(type.shortName): \(merged); \(reason)")
        }
        continue
      case .trapped(let lines):
        trapped = true
        if json {
          types.append(
            .object(
              JSONObject([
                ("type", .string(type.type)), ("reactors", .int(Int64(count))),
                ("trapped", .string(lines.joined(separator: "\n"))),
              ])))
        } else {
          output.write("\(type.shortName): \(merged); " + (lines.first ?? ""))
          for line in lines.dropFirst() { output.write("  " + line) }
        }
        continue
      }
      let abstraction = try type.abstraction()
      let coverage = try AbstractedCoverage(of: exploration, traces: type.openers) {
        ExplorationRun.abstractState($0, abstraction)
      }
      if let minimum, coverage.transitionShare * 100 < minimum { below.append(type.shortName) }
      if json {
        guard case .object(var object) = coverage.json else { continue }
        object["reactor"] = .string(type.type)
        object["reactors"] = .int(Int64(count))
        types.append(.object(object))
        continue
      }
      output.write(
        "\(type.shortName): \(merged); explored from the registered factory: "
          + "\(exploration.states.count) states, \(exploration.transitions.count) transitions "
          + "(stopped by \(exploration.stopReason)), through the abstraction "
          + ExplorationRun.counted(coverage.states.count, "state") + ", "
          + ExplorationRun.counted(coverage.transitions.count, "transition"))
      Self.write(coverage, indent: "  ", to: output)
    }
    if json {
      output.write(
        JSONValue.object(
          JSONObject([
            ("sessions", .int(Int64(traces.count))),
            ("reactors", .int(Int64(inputs.lanes.count))), ("types", .array(types)),
          ])
        ).serializedString)
    }
    if trapped { return .divergence }
    if let minimum, !below.isEmpty {
      throw CommandFailure(
        code: .belowMinimum,
        message: json
          ? nil
          : "transition coverage of \(below.joined(separator: ", ")) is below --min "
            + "\(Self.number(minimum))%")
    }
    return .success
  }
}

import Foundation
import Testing

/// `reactor-trace render` on a session: the sequence diagram and the views that take a trace
/// of one reactor, drawing every reactor of the example app's session.
@Suite("Rendering a session, end to end")
struct RenderSessionCommandTests {
  static let session = "Traces/taskapp.session.jsonl"

  @Test(arguments: ["svg", "png", "pdf", "dot", "mmd"])
  func theSequenceDiagramOfTheExampleSessionIsWrittenInEveryFormat(format: String) throws {
    let scratch = try ScratchDirectory()
    let output = scratch.file("sequence.\(format)")
    let result = try runReactorTrace(["render", "sequence", Self.session, "-o", output])

    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(result.standardOutput == "wrote \(output): 56 events\n")
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: output)))
    switch format {
    case "png": #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    case "pdf": #expect(bytes.starts(with: Array("%PDF".utf8)))
    case "mmd": #expect(bytes.starts(with: Array("sequenceDiagram\n".utf8)))
    case "dot": #expect(bytes.starts(with: Array("digraph".utf8)))
    default: #expect(String(decoding: bytes, as: UTF8.self).contains("taskService"))
    }
  }

  @Test func aSequenceDiagramCanBeCutToReactorsAndAWindowAndSplitIntoPages() throws {
    let scratch = try ScratchDirectory()
    let output = scratch.file("s.svg")
    let result = try runReactorTrace([
      "render", "sequence", Self.session, "--reactor", "1", "--reactor", "2", "--from", "10",
      "--to", "45", "--page-size", "20", "-o", output,
    ])

    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(
      result.standardOutput
        == "wrote \(scratch.file("s-1.svg")), \(scratch.file("s-2.svg")): 29 events\n")
    let first = try String(contentsOfFile: scratch.file("s-1.svg"), encoding: .utf8)
    #expect(first.contains("edit"))
    #expect(!first.contains("TaskCellReactor"))
  }

  @Test func anUnknownReactorOrAnEmptyWindowIsOneLineAndExitCode2() throws {
    let scratch = try ScratchDirectory()
    let unknown = try runReactorTrace([
      "render", "sequence", Self.session, "--reactor", "42", "-o", scratch.file("s.svg"),
    ])
    #expect(unknown.exitCode == 2)
    #expect(
      unknown.standardError
        == "reactor-trace: no reactor 42 in the session; its reactors are 1, 2, 3, 4, 5, 6, 7, 8, 9\n"
    )
    let empty = try runReactorTrace([
      "render", "sequence", Self.session, "--from", "900", "-o", scratch.file("s.svg"),
    ])
    #expect(empty.exitCode == 2)
    #expect(empty.standardError.contains("no event of the session is in --from 900"))
    #expect(!FileManager.default.fileExists(atPath: scratch.file("s.svg")))
  }

  @Test func aTraceOfOneReactorDrawsAsASessionOfOne() throws {
    let scratch = try ScratchDirectory()
    let output = scratch.file("counter.svg")
    let result = try runReactorTrace([
      "render", "sequence", "Traces/counter.trace.jsonl", "-o", output,
    ])

    #expect(result.exitCode == 0, "\(result.standardError)")
    let svg = try String(contentsOfFile: output, encoding: .utf8)
    #expect(svg.contains("CounterReactor"))
    #expect(svg.contains("increase"))
  }
}

extension RenderSessionCommandTests {
  @Test func theTimelineOfASessionDrawsTheChosenReactors() throws {
    let scratch = try ScratchDirectory()
    let output = scratch.file("timeline.svg")
    let result = try runReactorTrace([
      "render", "timeline", Self.session, "--reactor", "2", "--reactor", "4", "-o", output,
    ])

    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(result.standardOutput == "wrote \(output): 22 events\n")
    let svg = try String(contentsOfFile: output, encoding: .utf8)
    #expect(svg.contains("edit · #2 TaskEditReactor"))
    #expect(!svg.contains("list · #1"))
    let png = try runReactorTrace(["render", "timeline", Self.session, "-o", scratch.file("t.png")])
    #expect(png.exitCode == 0, "\(png.standardError)")
  }

  @Test func aTraceIsASessionOfItsOneReactorWithIDOne() throws {
    let scratch = try ScratchDirectory()
    let whole = try runReactorTrace([
      "render", "timeline", "Traces/counter.trace.jsonl", "-o", scratch.file("whole.dot"),
    ])
    let picked = try runReactorTrace([
      "render", "timeline", "Traces/counter.trace.jsonl", "--reactor", "1", "-o",
      scratch.file("picked.dot"),
    ])
    #expect(picked.exitCode == 0, "\(picked.standardError)")
    #expect(whole.exitCode == 0)
    #expect(
      try String(contentsOfFile: scratch.file("picked.dot"), encoding: .utf8)
        == String(contentsOfFile: scratch.file("whole.dot"), encoding: .utf8))

    let other = try runReactorTrace([
      "render", "timeline", "Traces/counter.trace.jsonl", "--reactor", "2", "-o",
      scratch.file("t.svg"),
    ])
    #expect(other.exitCode == 2)
    #expect(
      other.standardError == "reactor-trace: no reactor 2 in the trace; its reactors are 1\n")
    #expect(!FileManager.default.fileExists(atPath: scratch.file("t.svg")))
  }
}

extension RenderSessionCommandTests {
  @Test func theTransitionsOfASessionAreOneClusteredStateMachinePerReactorType() throws {
    let scratch = try ScratchDirectory()
    let output = scratch.file("machines.dot")
    let result = try runReactorTrace(["render", "transitions", Self.session, "-o", output])

    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(
      result.standardOutput
        == "wrote \(output): TaskAppListReactor: 5 states, 7 transitions; TaskEditReactor: 7 "
        + "states, 10 transitions; TaskCellReactor: 1 states, 2 transitions\n")
    let dot = try String(contentsOfFile: output, encoding: .utf8)
    #expect(dot.components(separatedBy: "subgraph \"cluster").count - 1 >= 3)
    #expect(dot.contains("TaskCellReactor · 7 reactors merged"))
    // How many of the type's reactors took each edge: two of the seven cells changed.
    #expect(dot.contains("\\n\u{A0}\u{A0}\u{A0}2 of 7 reactors"))
    #expect(dot.contains("taken in 2 of 7 reactors"))
    let one = try runReactorTrace([
      "render", "transitions", Self.session, "--reactor-type", "TaskEditReactor", "-o",
      scratch.file("edit.svg"),
    ])
    #expect(one.standardOutput.hasSuffix("TaskEditReactor: 7 states, 10 transitions\n"))
    let none = try runReactorTrace([
      "render", "transitions", Self.session, "--reactor-type", "Nope", "-o",
      scratch.file("none.svg"),
    ])
    #expect(none.exitCode == 2)
  }

  @Test func keyProjectsEveryTypeDrawnAndNamesTheTypeThatLacksIt() throws {
    let scratch = try ScratchDirectory()
    let cells = try runReactorTrace([
      "render", "transitions", Self.session, "--reactor-type", "TaskCellReactor", "--key",
      "task.isDone", "-o", scratch.file("cells.dot"),
    ])
    #expect(cells.exitCode == 0, "\(cells.standardError)")
    #expect(cells.standardOutput.hasSuffix("TaskCellReactor: 2 states, 2 transitions\n"))
    let dot = try String(contentsOfFile: scratch.file("cells.dot"), encoding: .utf8)
    #expect(dot.contains("task.isDone: true"))
    #expect(dot.contains("1 of 7 reactors"))
    let all = try runReactorTrace([
      "render", "transitions", Self.session, "--key", "task.isDone", "-o",
      scratch.file("all.dot"),
    ])
    #expect(all.exitCode == 2)
    #expect(all.standardError.hasPrefix("reactor-trace: unknown --key 'task.isDone'"))
    #expect(all.standardError.hasSuffix("(in TaskAppListReactor; --reactor-type picks one type)\n"))
    #expect(!FileManager.default.fileExists(atPath: scratch.file("all.dot")))
  }
}

extension RenderSessionCommandTests {
  @Test func perfettoWritesAProcessPerReactorOfASession() throws {
    let scratch = try ScratchDirectory()
    let output = scratch.file("session.json")
    let result = try runReactorTrace(["render", "perfetto", Self.session, "-o", output])

    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(result.standardOutput == "wrote \(output): 225 trace events\n")
    #expect(result.standardError.isEmpty)
    let document = try JSONSerialization.jsonObject(
      with: Data(contentsOf: URL(fileURLWithPath: output)))
    let events = try #require((document as? [String: Any])?["traceEvents"] as? [[String: Any]])
    let processes = events.filter { $0["name"] as? String == "process_name" }
    #expect(processes.count == 9)
    let starts = events.filter { $0["ph"] as? String == "s" }.compactMap { $0["id"] as? Int }
    let ends = events.filter { $0["ph"] as? String == "f" }.compactMap { $0["id"] as? Int }
    #expect(!starts.isEmpty && Set(starts) == Set(ends) && starts.count == ends.count)
  }
}

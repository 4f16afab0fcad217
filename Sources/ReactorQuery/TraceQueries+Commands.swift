import ReactorTracing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension TraceQueries {
  /// `replay`: the verdict of `reactor-trace replay` through the registered reactors.
  func replay(_ arguments: ToolArguments) throws(QueryError) -> QueryAnswer {
    let index = try index(arguments)
    let mode = try arguments.choice("mode", ["auto", "structural", "reduce", "mutate"]) ?? "auto"
    let key = CommandKey(identity: index.identity, arguments: ["replay", mode])
    if let answer = commandAnswers[key] { return answer }
    let outcome = try runner.run(["replay", index.path, "--mode", mode, "--json"])
    let lastLine = outcome.output.split(separator: "\n").last.map(String.init) ?? ""
    let result = try? JSONValue(parsing: lastLine)
    let verdict: String
    let meaning: String
    switch outcome.status {
    case 0:
      verdict = "match"
      meaning = "exit code 0: the trace replays as it was recorded"
    case 1:
      verdict = "divergence"
      meaning = "exit code 1: today's code does not do what the recording did"
    case 2:
      verdict = "unusable"
      meaning =
        "exit code 2: the trace could not be replayed (unreadable, or no reactor registered for it)"
    case 3:
      verdict = "warnings"
      meaning = "exit code 3: warnings about the trace"
    default:
      verdict = "crashed"
      meaning = "exit code \(outcome.status): the replay ended abnormally (a reactor trapped?)"
    }
    let errors = outcome.errors.split(separator: "\n").map {
      String($0).replacing(index.path, with: index.name)
    }
    let withheld = redaction.isActive && index.touchesRedactedValues && outcome.status != 0
    var structured = JSONObject()
    structured["trace"] = .string(index.name)
    structured["mode"] = .string(mode)
    structured["exitCode"] = .int(Int64(outcome.status))
    structured["verdict"] = .string(verdict)
    structured["meaning"] = .string(meaning)
    var lines = ["\(index.name): replay --mode \(mode): \(verdict) (\(meaning))"]
    if withheld {
      let note =
        "the details are withheld: the trace holds values the server's redaction hides, "
        + "and a replay's report quotes them (start the server with --no-redact to see them)"
      structured["withheld"] = .string(note)
      lines.append(note)
    } else {
      if let result {
        structured["result"] = result
        lines.append(result["report"]?.stringValue ?? Self.text(result))
      }
      structured["messages"] = .array(errors.map { .string($0) })
      lines += errors
    }
    let answer = QueryAnswer(text: lines.joined(separator: "\n"), structured: .object(structured))
    commandAnswers[key] = answer
    return answer
  }

  /// `diagram`: Mermaid text from `reactor-trace render`.
  func diagram(_ arguments: ToolArguments) throws(QueryError) -> QueryAnswer {
    let index = try index(arguments)
    guard let kind = try arguments.choice("kind", ["transitions", "sequence"]) else {
      throw .invalidArgument(name: "kind", reason: "is required: transitions or sequence")
    }
    let reactors = try index.reactorIDs(matching: arguments.reactor())
    if redaction.isActive, index.touchesRedactedValues {
      throw .redacted(
        reason: "\(index.name) holds values the server's redaction hides, and diagrams are "
          + "drawn from the file as it is; start the server with --no-redact to draw it")
    }
    var command = ["render", kind, index.path, "--format", "mermaid"]
    if kind == "sequence", let reactors {
      // A session's sequence: the reactors named.
      for id in reactors.sorted() { command += ["--reactor", String(id)] }
    } else if let reactors {
      // Transitions: one machine per reactor type; the type of the reactors named.
      let types = Set(reactors.compactMap { index.reactors[$0]?.type })
      guard types.count == 1, let type = types.first else {
        throw .invalidArgument(
          name: "reactor",
          reason: "names reactors of several types (" + types.sorted().joined(separator: ", ")
            + "); transitions are drawn per type: name one type")
      }
      command += ["--reactor-type", type]
    }
    let key = CommandKey(identity: index.identity, arguments: command)
    if let answer = commandAnswers[key] { return answer }
    var template = Array("/tmp/reactor-trace-mcp-XXXXXX".utf8CString)
    guard let directory = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) })
    else {
      throw .commandFailed("no temporary directory for the diagram")
    }
    let folder = String(cString: directory)
    let output = folder + "/diagram.mmd"
    defer {
      unlink(output)
      rmdir(folder)
    }
    let outcome = try runner.run(command + ["-o", output])
    guard outcome.status == 0 else {
      let message = outcome.errors.split(separator: "\n").first.map(String.init) ?? ""
      throw .commandFailed(
        "reactor-trace render \(kind) failed (exit code \(outcome.status)): "
          + message.replacing(index.path, with: index.name))
    }
    let descriptor = open(output, O_RDONLY)
    guard descriptor >= 0 else { throw .commandFailed("reactor-trace render wrote no diagram") }
    let bytes = POSIXIO.readToEnd(descriptor) ?? []
    close(descriptor)
    let mermaid = String(decoding: bytes, as: UTF8.self)
    var structured = JSONObject()
    structured["trace"] = .string(index.name)
    structured["kind"] = .string(kind)
    structured["mermaid"] = .string(mermaid)
    let answer = QueryAnswer(
      text: "```mermaid\n" + mermaid + (mermaid.hasSuffix("\n") ? "" : "\n") + "```",
      structured: .object(structured))
    commandAnswers[key] = answer
    return answer
  }
}

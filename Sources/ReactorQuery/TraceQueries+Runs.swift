import ReactorTracing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension TraceQueries {
  /// The longest a `shrink`, `compare` or `coverage` run may take, in seconds, and the default.
  static let runTimeLimits: (default: Double, maximum: Double) = (120, 600)

  /// `shrink`: `reactor-trace shrink` on a script, trace or session under the root, in a
  /// process of its own (candidates in its workers), the shrunk script in the answer.
  func shrink(_ arguments: ToolArguments) throws(QueryError) -> QueryAnswer {
    let input = try arguments.requiredString("input")
    let path = try root.resolve(input)
    let states = try arguments.strings("until_state")
    let invariant = try arguments.flag("until_invariant")
    let trap = try arguments.flag("until_trap")
    guard !states.isEmpty || invariant || trap else {
      throw .invalidArgument(
        name: "until_state",
        reason: "or until_invariant or until_trap is required: the condition the run must "
          + "still meet")
    }
    var command = ["shrink", path]
    command += states.flatMap { ["--until-state", $0] }
    if invariant { command.append("--until-invariant") }
    if trap { command.append("--until-trap") }
    if let reactor = try arguments.string("reactor", maximumLength: 1024) {
      command += ["--reactor", reactor]
    }
    command += try arguments.strings("meta").flatMap { ["--meta", $0] }
    if let settle = try arguments.integer("settle", in: 0...3_600_000) {
      command += ["--settle", String(settle)]
    }
    if let strategy = try arguments.choice("strategy", ["fast", "ddmin"]) {
      command += ["--strategy", strategy]
    }
    let written = try newFiles(arguments, ["test", "trace"])
    if let test = written["test"] {
      command += ["--test", test]
      if let suite = try arguments.string("suite_name", maximumLength: 200) {
        command += ["--suite-name", suite]
      }
      command += try arguments.strings("trait").flatMap { ["--trait", $0] }
      command += try arguments.strings("import").flatMap { ["--import", $0] }
    }
    if let trace = written["trace"] { command += ["--trace", trace] }
    let seconds = try timeLimit(arguments)
    command += ["--time-limit", String(seconds)]
    let output = try newFiles(arguments, ["output"])["output"]
    let hidden = try hidesValues([path], scriptSteps: true)
    return try withScratch { scratch throws(QueryError) in
      command += ["-o", output ?? scratch + "/shrunk.jsonl", "--json"]
      let outcome = try runner.run(command, timeLimit: .seconds(seconds + 60))
      var names = [path: input, scratch + "/shrunk.jsonl": "(the answer)"]
      for (key, value) in written { names[value] = try arguments.string(key) }
      if let output { names[output] = try arguments.string("output") }
      return answer(
        of: outcome, tool: "shrink", names: names, hidden: hidden,
        meanings: [
          0: ("shrunk", "exit code 0: the script is written and 1-minimal"),
          1: ("never met", "exit code 1: the input never meets the condition"),
          2: ("unusable", "exit code 2: unusable input or output"),
          5: (
            "stopped at the time limit",
            "exit code 5: stopped at time_limit; the best script so far, maybe not minimal"
          ),
        ],
        summary: { result in
          guard let steps = result["steps"]?.intValue, let of = result["inputSteps"]?.intValue
          else { return [] }
          var lines = [
            "\(steps) of \(of) steps"
              + (result["oneMinimal"]?.boolValue == true ? " (1-minimal)" : "")
              + ", \(result["runs"]?.intValue ?? 0) runs"
          ]
          if hidden {
            lines.append(Self.withheldNote)
          } else {
            if let detail = result["detail"]?.stringValue { lines.append("met: \(detail)") }
            if let script = result["script"]?.arrayValue {
              lines.append("```jsonl")
              lines += script.compactMap(\.stringValue)
              lines.append("```")
            }
          }
          return lines
        })
    }
  }

  /// `compare`: `reactor-trace compare` of two sets of runs under the root, or of one set
  /// split by metadata.
  func compare(_ arguments: ToolArguments) throws(QueryError) -> QueryAnswer {
    let before = try arguments.strings("before")
    let after = try arguments.strings("after")
    let beforeWhere = try arguments.strings("before_where")
    let afterWhere = try arguments.strings("after_where")
    let isSplit = !beforeWhere.isEmpty || !afterWhere.isEmpty
    guard !before.isEmpty else {
      throw .invalidArgument(name: "before", reason: "is required: files or directories")
    }
    if isSplit {
      guard !beforeWhere.isEmpty, !afterWhere.isEmpty, after.isEmpty else {
        throw .invalidArgument(
          name: "after_where",
          reason: "and before_where split one set (given as before, without after): give both")
      }
    } else if after.isEmpty {
      throw .invalidArgument(
        name: "after", reason: "is required, unless before_where and after_where split before")
    }
    let alpha = try arguments.number("alpha", in: 0.000_001...0.999_999)
    let reactor = try arguments.string("reactor", maximumLength: 1024)
    let drawn = try arguments.flag("diagram")
    let abstraction = try arguments.string("abstraction").map { name throws(QueryError) in
      try root.resolve(name)
    }
    let beforeFiles = try files(before)
    let afterFiles = try files(after)
    let hidden = try hidesValues(beforeFiles + afterFiles, scriptSteps: false)
    if drawn, hidden {
      throw .redacted(
        reason: "the runs hold values the server's redaction hides, and the diagram is drawn "
          + "from the files as they are; start the server with --no-redact to draw it")
    }
    let seconds = try timeLimit(arguments)
    return try withScratch { scratch throws(QueryError) in
      var names: [String: String] = [:]
      for (file, relative) in zip(
        beforeFiles + afterFiles, (beforeFiles + afterFiles).map(root.relativePath))
      {
        names[file] = relative
      }
      var command = ["compare", try side(beforeFiles, in: scratch + "/before")]
      if isSplit {
        command += beforeWhere.flatMap { ["--before", $0] }
        command += afterWhere.flatMap { ["--after", $0] }
      } else {
        command.append(try side(afterFiles, in: scratch + "/after"))
      }
      if let alpha { command += ["--alpha", String(alpha)] }
      if let abstraction { command += ["--abstraction", abstraction] }
      if let reactor { command += ["--reactor", reactor] }
      let diagram = scratch + "/union.mmd"
      if drawn { command += ["-o", diagram] }
      command.append("--json")
      let outcome = try runner.run(command, timeLimit: .seconds(seconds))
      var answer = answer(
        of: outcome, tool: "compare", names: names, hidden: hidden,
        meanings: [
          0: ("no change", "exit code 0: nothing changed significantly"),
          1: ("changed", "exit code 1: something changed significantly"),
          2: ("unusable", "exit code 2: unusable input"),
        ],
        summary: { result in
          hidden ? [Self.withheldNote] : [result["report"]?.stringValue ?? Self.text(result)]
        })
      if drawn, outcome.status <= 1, let mermaid = Self.contents(of: diagram) {
        answer.text += "\n```mermaid\n" + mermaid + (mermaid.hasSuffix("\n") ? "" : "\n") + "```"
        if case .object(var structured) = answer.structured {
          structured["mermaid"] = .string(mermaid)
          answer.structured = .object(structured)
        }
      }
      return answer
    }
  }

  /// `coverage`: `reactor-trace coverage` of traces and sessions under the root.
  func coverage(_ arguments: ToolArguments) throws(QueryError) -> QueryAnswer {
    let traces = try files(try arguments.strings("traces"))
    guard !traces.isEmpty else {
      throw .invalidArgument(name: "traces", reason: "is required: traces or sessions")
    }
    let production = try files(try arguments.strings("production"))
    var command = ["coverage"] + traces
    if let reactor = try arguments.string("reactor", maximumLength: 1024) {
      command += ["--reactor", reactor]
    }
    if let actions = try arguments.string("actions") {
      command += ["--actions", try root.resolve(actions)]
    }
    command += try arguments.strings("meta").flatMap { ["--meta", $0] }
    command += try arguments.strings("key").flatMap { ["--key", $0] }
    command += try arguments.strings("reactor_type").flatMap { ["--reactor-type", $0] }
    if let depth = try arguments.integer("max_depth", in: 0...10_000) {
      command += ["--max-depth", String(depth)]
    }
    if let states = try arguments.integer("max_states", in: 1...1_000_000) {
      command += ["--max-states", String(states)]
    }
    if let settle = try arguments.integer("settle", in: 0...3_600_000) {
      command += ["--settle", String(settle)]
    }
    if let minimum = try arguments.number("min", in: 0...100) {
      command += ["--min", String(minimum)]
    }
    command += production.flatMap { ["--production", $0] }
    if let limit = try arguments.integer("limit", in: 0...10_000) {
      command += ["--limit", String(limit)]
    }
    let seconds = try timeLimit(arguments)
    // Exploration stops itself at the limit; the run is stopped a minute later.
    command += ["--time-limit", String(seconds), "--json"]
    let hidden = try hidesValues(traces + production, scriptSteps: false)
    var names: [String: String] = [:]
    for file in traces + production { names[file] = root.relativePath(file) }
    let outcome = try runner.run(command, timeLimit: .seconds(seconds + 60))
    return answer(
      of: outcome, tool: "coverage", names: names, hidden: hidden,
      meanings: [
        0: ("measured", "exit code 0: the coverage is measured"),
        2: ("unusable", "exit code 2: unusable input"),
        4: ("below min", "exit code 4: the share of transitions exercised is below min"),
      ],
      summary: { result in
        hidden ? [Self.withheldNote] : [result["report"]?.stringValue ?? Self.text(result)]
      })
  }

  // MARK: - Shared

  static let withheldNote =
    "the details are withheld: the runs hold values the server's redaction hides, and the "
    + "command's report quotes them (start the server with --no-redact to see them)"

  /// The answer to a run: its verdict by exit code, what it printed as JSON (its last line),
  /// and its messages, every resolved path in them named as the agent named it.
  private func answer(
    of outcome: CommandRunner.Outcome, tool: String, names: [String: String], hidden: Bool,
    meanings: [Int32: (verdict: String, meaning: String)],
    summary: (JSONValue) -> [String]
  ) -> QueryAnswer {
    func named(_ text: String) -> String {
      var text = text
      // Longest first, so that a path is not replaced inside a longer one.
      for (path, name) in names.sorted(by: { $0.key.count > $1.key.count }) {
        text = text.replacing(path, with: name)
      }
      return text
    }
    let (verdict, meaning) =
      meanings[outcome.status]
      ?? (
        "crashed",
        "exit code \(outcome.status): the run ended abnormally (a reactor trapped, or the time "
          + "limit stopped it?)"
      )
    let lastLine = outcome.output.split(separator: "\n").last.map(String.init) ?? ""
    let result = try? JSONValue(parsing: named(lastLine))
    var structured = JSONObject()
    structured["exitCode"] = .int(Int64(outcome.status))
    structured["verdict"] = .string(verdict)
    structured["meaning"] = .string(meaning)
    var lines = ["\(tool): \(verdict) (\(meaning))"]
    if let result { lines += summary(result) }
    if hidden {
      structured["withheld"] = .string(Self.withheldNote)
      if result == nil { lines.append(Self.withheldNote) }
      // Counts only: every number at the top of the result.
      if let object = result?.objectValue {
        var counts = JSONObject()
        for (key, value) in object.members where value.intValue != nil || value.boolValue != nil {
          counts[key] = value
        }
        structured["result"] = .object(counts)
      }
    } else {
      if let result { structured["result"] = result }
      // Progress lines (shrink's) are left out; the messages are the rest.
      let messages = outcome.errors.split(separator: "\n").map { named(String($0)) }
        .filter { !$0.hasPrefix("shrink: ") }
      structured["messages"] = .array(messages.map { .string($0) })
      lines += messages
    }
    return QueryAnswer(text: lines.joined(separator: "\n"), structured: .object(structured))
  }

  /// The time limit argument, in seconds.
  private func timeLimit(_ arguments: ToolArguments) throws(QueryError) -> Double {
    try arguments.number("time_limit", in: 1...Self.runTimeLimits.maximum)
      ?? Self.runTimeLimits.default
  }

  /// New files to write, inside the root, by argument name.
  private func newFiles(_ arguments: ToolArguments, _ keys: [String]) throws(QueryError)
    -> [String: String]
  {
    var result: [String: String] = [:]
    for key in keys {
      if let relative = try arguments.string(key) {
        do throws(QueryError) {
          result[key] = try root.resolveNew(relative)
        } catch {
          throw .invalidArgument(name: key, reason: "cannot be written: \(error)")
        }
      }
    }
    return result
  }

  /// The files of a side: each path a file or a directory under the root.
  private func files(_ paths: [String]) throws(QueryError) -> [String] {
    var result: [String] = []
    for path in paths {
      result += try root.files(path, limit: 10_000)
      guard result.count <= 10_000 else {
        throw .invalidArgument(name: "files", reason: "more than 10,000 files")
      }
    }
    return result
  }

  /// One command-line argument for a side of `compare`: its file, or a directory of links to
  /// its files (each checked inside the root already).
  private func side(_ files: [String], in folder: String) throws(QueryError) -> String {
    if files.count == 1 { return files[0] }
    guard mkdir(folder, 0o700) == 0 else {
      throw .commandFailed("no temporary directory for compare's inputs")
    }
    for (number, file) in files.enumerated() {
      let name = file.split(separator: "/").last.map(String.init) ?? "file"
      guard symlink(file, folder + "/\(number)-" + name) == 0 else {
        throw .commandFailed("no temporary link for compare's inputs")
      }
    }
    return folder
  }

  /// Whether the redaction hides a value in these files: a trace's or session's index says
  /// (and a script's steps' payloads, when `scriptSteps`); a summary or any other file is
  /// taken to hide one when it holds a name a rule names (or any rule names none).
  private func hidesValues(_ files: [String], scriptSteps: Bool) throws(QueryError) -> Bool {
    guard redaction.isActive else { return false }
    for file in files {
      let start = Self.prefix(of: file, count: 1 << 22)
      if start.starts(with: [0x1F, 0x8B]) { return true }  // gzip: cannot be looked into
      let firstLine = start.prefix { $0 != 0x0A }
      let header = try? JSONValue(parsing: String(decoding: firstLine, as: UTF8.self))
      if header?["format"]?.stringValue == "reactor-trace" {
        let index = try index(
          ToolArguments(
            .object(JSONObject([("trace", .string(root.relativePath(file)))])),
            accepted: ["trace"]))
        if index.touchesRedactedValues { return true }
        continue
      }
      let bytes = Self.prefix(of: file, count: 1 << 26)
      if scriptSteps, header?["app"] != nil || header?["reactor"] != nil || header?["t"] != nil {
        for line in bytes.split(separator: 0x0A) {
          guard let step = try? JSONValue(parsing: String(decoding: line, as: UTF8.self)) else {
            continue
          }
          for key in ["action", "event"]
          where redaction.touches(payload: step[key], isAction: true) {
            return true
          }
        }
        continue
      }
      if redaction.mayName(in: bytes) { return true }
    }
    return false
  }

  /// The first `count` bytes of a file (fewer when it is shorter or cannot be read).
  private static func prefix(of path: String, count: Int) -> [UInt8] {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return [] }
    defer { close(descriptor) }
    var bytes = [UInt8](repeating: 0, count: count)
    var done = 0
    while done < count {
      let read = bytes.withUnsafeMutableBytes { buffer in
        POSIXIO.read(
          descriptor, into: UnsafeMutableRawBufferPointer(rebasing: buffer[done...]), at: done)
      }
      if read <= 0 { break }
      done += read
    }
    return Array(bytes[..<done])
  }

  /// A temporary directory for a run's files, removed with them after `body`.
  private func withScratch<T>(_ body: (String) throws(QueryError) -> T) throws(QueryError) -> T {
    var template = Array("/tmp/reactor-trace-mcp-XXXXXX".utf8CString)
    guard let directory = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) })
    else {
      throw .commandFailed("no temporary directory for the run")
    }
    let folder = String(cString: directory)
    defer { Self.remove(folder) }
    return try body(folder)
  }

  /// Removes a directory this service made, and what it holds (files and links, one level of
  /// directories).
  private static func remove(_ folder: String) {
    guard let stream = opendir(folder) else { return }
    while let entry = readdir(stream) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name == "." || name == ".." { continue }
      let path = folder + "/" + name
      var status = stat()
      if lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
        remove(path)
      } else {
        unlink(path)
      }
    }
    closedir(stream)
    rmdir(folder)
  }

  /// A file's text, or `nil` when it cannot be read.
  static func contents(of path: String) -> String? {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    return POSIXIO.readToEnd(descriptor).map { String(decoding: $0, as: UTF8.self) }
  }
}

import Foundation
import ReactorTracing

/// A script of timed inputs for a reactor, or for a whole app, in JSON Lines: the format
/// `reactor-trace record --actions` reads, `explore --path-to` writes, and a trace can be
/// turned back into.
///
/// ```
/// {"reactor": "ReactorExamples.CounterReactor", "meta": {"limit": "2"}}
/// {"t": 0, "action": "increase"}
/// {"t": 900, "event": {"create": {"title": "Reply to review"}}}
/// ```
///
/// An optional first line names the reactor and the header metadata. Each further line is a
/// step at `t` milliseconds from the start (never decreasing): an `action` (the reactor's
/// Codable `Action`) sent to the reactor, or an `event` handed to the reactor's fakes, such
/// as a change made on another screen. ``ScriptRunner`` records a script on a test clock.
///
/// An app's script names the app instead (its session factory builds it), and each step
/// says which of the app's reactors its action goes `to` (``ReactorAddress``): one the
/// factory named, or one such a reactor holds, by a path through the states.
///
/// ```
/// {"app": "TaskApp"}
/// {"t": 0, "to": "list", "action": "refresh"}
/// {"t": 100, "to": "edit", "action": {"setTitle": {"_0": "Buy milk"}}}
/// {"t": 200, "to": "list/cells[task.id=1]", "action": "toggle"}
/// ```
///
/// ``SessionScriptRunner`` records an app's script as a session.
public struct ReactorScript: Sendable, Hashable {
  /// The file the script was read from, or a name standing for it in messages.
  public var name: String
  /// The reactor named by the header line.
  public var reactor: String?
  /// The app named by the header line, whose session factory builds the reactors an app's
  /// script addresses; `nil` for the script of one reactor.
  public var app: String?
  /// The metadata of the header line.
  public var metadata: [String: String]
  /// The steps, in the order written.
  public var steps: [Step]

  /// A script built in memory, such as one an exploration found; `name` stands for its path.
  public init(
    name: String, reactor: String? = nil, app: String? = nil, metadata: [String: String] = [:],
    steps: [Step]
  ) {
    self.name = name
    self.reactor = reactor
    self.app = app
    self.metadata = metadata
    self.steps = steps
  }

  /// The number of action steps.
  public var actionCount: Int {
    steps.count(where: \.input.isAction)
  }

  /// The steps in the order they are run (``ScriptOrder``).
  public var orderedSteps: [Step] {
    ScriptOrder.sorted(steps, time: \.time, isAction: \.input.isAction)
  }

  /// Reads a script file.
  /// - Throws: ``ScriptError`` naming the file and line.
  public init(path: String) throws(ScriptError) {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw .unreadable(path: path, reason: "no such readable file")
    }
    try self.init(parsing: String(decoding: data, as: UTF8.self), name: path)
  }

  /// Reads a script's text; `name` stands for its path in messages.
  /// - Throws: ``ScriptError`` naming the line.
  public init(parsing text: String, name: String) throws(ScriptError) {
    self.init(name: name, steps: [])
    var last = Duration.zero
    var isFirst = true
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    for (number, text) in lines.enumerated() where !text.allSatisfy(\.isWhitespace) {
      let line = number + 1
      let json: JSONValue
      do {
        json = try JSONValue(parsing: String(text))
      } catch {
        throw .malformed(path: name, line: line, reason: error.description)
      }
      guard case .object(let object) = json else {
        throw .malformed(path: name, line: line, reason: "a step must be a JSON object")
      }
      defer { isFirst = false }
      if isFirst, object["t"] == nil, object["action"] == nil, object["event"] == nil {
        try readHeader(object, line: line)
        continue
      }
      let target = try readTarget(object["to"], line: line)
      guard let milliseconds = object["t"] else {
        throw .malformed(path: name, line: line, reason: "missing field 't' (milliseconds)")
      }
      guard let time = TraceTime.duration(milliseconds: milliseconds) else {
        throw .malformed(
          path: name, line: line,
          reason: "'t' must be \(TraceTime.millisecondsRange), not "
            + TerminalText.quoted(milliseconds.serializedString))
      }
      let input: Step.Input
      switch (object["action"], object["event"]) {
      case (let action?, nil): input = .action(action)
      case (nil, let event?):
        guard app == nil else {
          throw .malformed(
            path: name, line: line,
            reason: "an app's script sends actions 'to' its reactors; it has no 'event' steps")
        }
        input = .event(event)
      case (nil, nil):
        throw .malformed(path: name, line: line, reason: "a step needs an 'action' or an 'event'")
      case (_?, _?):
        throw .malformed(
          path: name, line: line, reason: "a step has an 'action' or an 'event', not both")
      }
      guard time >= last else {
        throw .malformed(
          path: name, line: line,
          reason: "'t' must not go back in time (\(TraceTime.millisecondsText(time) ?? "?") ms)")
      }
      last = time
      steps.append(Step(time: time, input: input, line: line, target: target))
    }
  }

  /// Reads a step's `to`: required in an app's script, refused in a reactor's.
  private func readTarget(_ value: JSONValue?, line: Int) throws(ScriptError) -> ReactorAddress? {
    guard let app else {
      guard value == nil else {
        throw .malformed(
          path: name, line: line,
          reason: "'to' addresses a reactor of an app: name the app in the first line, "
            + #"{"app": "TaskApp"}"#)
      }
      return nil
    }
    guard let value else {
      throw .malformed(
        path: name, line: line,
        reason: "a step of \(app)'s script says which reactor it goes 'to', such as "
          + #""to": "list""#)
    }
    guard case .string(let text) = value else {
      throw .malformed(
        path: name, line: line, reason: "'to' must be a string, such as \"list/cells.0\"")
    }
    do {
      return try ReactorAddress(parsing: text)
    } catch {
      throw .malformed(path: name, line: line, reason: error.description)
    }
  }

  /// The script a trace was recorded from, as far as the trace tells it: the actions it
  /// records as sent, at their times, and the scripted events its metadata keeps.
  ///
  /// The reactor and metadata are the header's (without the scripted events, which the
  /// steps hold). Steps name the trace's lines, in the order they are run.
  /// - Throws: ``ScriptError`` when the trace cannot be read or an action has no value.
  public init(trace path: String) throws(ScriptError) {
    let reader: TraceReader
    do {
      reader = try TraceReader(path: path, verifyingStates: false)
    } catch {
      throw .unreadable(path: path, reason: error.description)
    }
    self.init(
      name: path, reactor: reader.header.reactor, metadata: reader.header.metadata, steps: [])
    metadata[ScriptedEvents.metadataKey] = nil
    let events: ScriptedEvents
    do {
      events = try ScriptedEvents(metadata: reader.header.metadata)
    } catch {
      throw .malformed(path: path, line: 1, reason: error.description)
    }
    for event in events.events {
      steps.append(Step(time: event.time, input: .event(event.value), line: 1))
    }
    while true {
      let next: TraceEvent?
      do {
        next = try reader.next()
      } catch {
        throw .unreadable(path: path, reason: error.description)
      }
      guard let event = next else { break }
      guard case .action(let action) = event.kind, action.source == .sent else { continue }
      guard let value = action.value else {
        throw .malformed(
          path: path, line: reader.lineNumber,
          reason: "the action \(action.label) was recorded without its value")
      }
      steps.append(Step(time: event.time, input: .action(value), line: reader.lineNumber))
    }
    steps = orderedSteps
  }

  /// The script's lines: a header naming the reactor and its metadata (when there are
  /// any), then a step per line with cases without payload compacted (``ScriptCase``).
  /// - Returns: JSON Lines, without newlines.
  public var lines: [String] {
    var lines: [String] = []
    var header: [(String, JSONValue)] = []
    if let reactor { header.append(("reactor", .string(reactor))) }
    if let app { header.append(("app", .string(app))) }
    if !metadata.isEmpty {
      header.append(
        ("meta", .object(JSONObject(metadata.map { ($0.key, JSONValue.string($0.value)) }))))
    }
    if !header.isEmpty { lines.append(JSONValue.object(JSONObject(header)).serializedString) }
    for step in steps {
      let input: (String, JSONValue) =
        switch step.input {
        case .action(let value): ("action", ScriptCase.compact(value))
        case .event(let value): ("event", value)
        }
      let target = step.target.map { [("to", JSONValue.string($0.description))] } ?? []
      lines.append(
        JSONValue.object(
          JSONObject([("t", ScriptTime.milliseconds(step.time))] + target + [input])
        ).serializedString)
    }
    return lines
  }

  /// The script file's text: ``lines``, each ending in a newline.
  public var text: String {
    lines.map { $0 + "\n" }.joined()
  }

  /// Reads the optional first line: `{"reactor": "...", "meta": {"key": "value"}}`, or for an
  /// app `{"app": "...", "meta": {…}}`.
  private mutating func readHeader(_ object: JSONObject, line: Int) throws(ScriptError) {
    for (key, value) in object.members {
      switch (key, value) {
      case ("reactor", .string(let reactor)): self.reactor = reactor
      case ("app", .string(let app)): self.app = app
      case ("meta", .object(let pairs)):
        for (key, value) in pairs.members {
          guard case .string(let text) = value else {
            throw .malformed(path: name, line: line, reason: "metadata '\(key)' must be a string")
          }
          metadata[key] = text
        }
      case ("reactor", _), ("app", _):
        throw .malformed(path: name, line: line, reason: "'\(key)' must be a string")
      case ("meta", _):
        throw .malformed(path: name, line: line, reason: "'meta' must be an object of strings")
      default:
        throw .malformed(
          path: name, line: line,
          reason:
            "unknown header field '\(key)'; a header has 'reactor' (or 'app') and 'meta', "
            + "a step 't'")
      }
    }
    if reactor != nil, app != nil {
      throw .malformed(
        path: name, line: line,
        reason: "a script is of one reactor or of an app: its header names 'reactor' or 'app'")
    }
  }
}

import Foundation
import ReactorTracing

/// A script of timed inputs, in JSON Lines.
///
/// ```
/// {"reactor": "ReactorExamples.CounterReactor", "meta": {"limit": "2"}}
/// {"t": 0, "action": "increase"}
/// {"t": 900, "event": {"create": {"title": "Reply to review"}}}
/// ```
///
/// An optional first line names the reactor and the header metadata. Each further line is a
/// step at `t` milliseconds from the start (never decreasing): an `action` (the reactor's
/// Codable Action) sent to the reactor, or an `event` (its registration's Codable event type)
/// handed to the reactor's fakes, such as a change made on another screen.
struct ActionScript: Sendable {
  /// One scripted input.
  struct Step: Sendable {
    /// What a step feeds the reactor.
    enum Input: Sendable {
      case action(JSONValue)
      case event(JSONValue)

      var isAction: Bool {
        if case .action = self { true } else { false }
      }
    }

    var time: Duration
    var input: Input
    var line: Int
  }

  var path: String
  /// The reactor named by the header line.
  var reactor: String?
  /// The metadata of the header line.
  var metadata: [String: String] = [:]
  var steps: [Step] = []

  /// The number of action steps.
  var actionCount: Int {
    steps.count(where: \.input.isAction)
  }

  /// A script built in memory, such as one an exploration found; `name` stands for its path.
  init(name: String, reactor: String?, metadata: [String: String], steps: [Step]) {
    self.path = name
    self.reactor = reactor
    self.metadata = metadata
    self.steps = steps
  }

  /// Reads a script file.
  init(path: String) throws(ScriptError) {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw .unreadable(path: path, reason: "no such readable file")
    }
    let lines = String(decoding: data, as: UTF8.self)
      .split(separator: "\n", omittingEmptySubsequences: false)
    self.path = path
    var last = Duration.zero
    var isFirst = true
    for (number, text) in lines.enumerated() where !text.allSatisfy(\.isWhitespace) {
      let line = number + 1
      let json: JSONValue
      do {
        json = try JSONValue(parsing: String(text))
      } catch {
        throw .malformed(path: path, line: line, reason: error.description)
      }
      guard case .object(let object) = json else {
        throw .malformed(path: path, line: line, reason: "a step must be a JSON object")
      }
      defer { isFirst = false }
      if isFirst, object["t"] == nil, object["action"] == nil, object["event"] == nil {
        try readHeader(object, line: line)
        continue
      }
      guard let milliseconds = object["t"] else {
        throw .malformed(path: path, line: line, reason: "missing field 't' (milliseconds)")
      }
      guard let time = TraceTime.duration(milliseconds: milliseconds) else {
        throw .malformed(
          path: path, line: line,
          reason: "'t' must be \(TraceTime.millisecondsRange), not "
            + TerminalText.quoted(milliseconds.serializedString))
      }
      let input: Step.Input
      switch (object["action"], object["event"]) {
      case (let action?, nil): input = .action(action)
      case (nil, let event?): input = .event(event)
      case (nil, nil):
        throw .malformed(path: path, line: line, reason: "a step needs an 'action' or an 'event'")
      case (_?, _?):
        throw .malformed(
          path: path, line: line, reason: "a step has an 'action' or an 'event', not both")
      }
      guard time >= last else {
        throw .malformed(
          path: path, line: line,
          reason: "'t' must not go back in time (\(TraceTime.millisecondsText(time) ?? "?") ms)")
      }
      last = time
      steps.append(Step(time: time, input: input, line: line))
    }
  }

  /// The script a trace was recorded from, as far as the trace tells it: the actions it
  /// records as sent, at their times, and the scripted events its metadata keeps.
  ///
  /// The reactor and metadata are the header's (without the scripted events, which the
  /// steps hold). Steps name the trace's lines.
  /// - Throws: ``ScriptError`` when the trace cannot be read or an action has no value.
  init(trace path: String) throws(ScriptError) {
    self.path = path
    let reader: TraceReader
    do {
      reader = try TraceReader(path: path, verifyingStates: false)
    } catch {
      throw .unreadable(path: path, reason: error.description)
    }
    reactor = reader.header.reactor
    metadata = reader.header.metadata
    metadata[ScriptedEvents.metadataKey] = nil
    do {
      for event in try ScriptedEvents(metadata: reader.header.metadata).events {
        steps.append(Step(time: event.time, input: .event(event.value), line: 1))
      }
    } catch {
      throw .malformed(path: path, line: 1, reason: error.reason)
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
    // Events first at equal times, as recording orders them; the sort is stable.
    steps = steps.enumerated()
      .sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
      .map(\.element)
  }

  /// Reads the optional first line: `{"reactor": "...", "meta": {"key": "value"}}`.
  private mutating func readHeader(_ object: JSONObject, line: Int) throws(ScriptError) {
    for (key, value) in object.members {
      switch (key, value) {
      case ("reactor", .string(let name)): reactor = name
      case ("meta", .object(let pairs)):
        for (name, value) in pairs.members {
          guard case .string(let text) = value else {
            throw .malformed(
              path: path, line: line, reason: "metadata '\(name)' must be a string")
          }
          metadata[name] = text
        }
      case ("reactor", _):
        throw .malformed(path: path, line: line, reason: "'reactor' must be a string")
      case ("meta", _):
        throw .malformed(path: path, line: line, reason: "'meta' must be an object of strings")
      default:
        throw .malformed(
          path: path, line: line,
          reason: "unknown header field '\(key)'; a header has 'reactor' and 'meta', a step 't'")
      }
    }
  }
}

/// Why a script could not be used.
enum ScriptError: Error, Sendable, CustomStringConvertible {
  case unreadable(path: String, reason: String)
  case malformed(path: String, line: Int, reason: String)
  case undecodableInput(path: String, line: Int, what: String, reason: String)
  case notDecodable(String)
  case eventsNotAccepted(path: String, line: Int, reactor: String)
  case recordingFailed(String)

  var description: String {
    switch self {
    case .unreadable(let path, let reason): "cannot read script '\(path)': \(reason)"
    case .malformed(let path, let line, let reason): "\(path):\(line): malformed step: \(reason)"
    case .undecodableInput(let path, let line, let what, let reason):
      "\(path):\(line): the \(what) cannot be decoded: \(reason)"
    case .notDecodable(let type): "the \(type) type is not Decodable, so it cannot be scripted"
    case .eventsNotAccepted(let path, let line, let reactor):
      "\(path):\(line): \(reactor) is registered without an event type, so the script cannot "
        + "send it events"
    case .recordingFailed(let reason): "recording failed: \(reason)"
    }
  }
}

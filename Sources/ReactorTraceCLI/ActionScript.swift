import Foundation
import ReactorTracing

/// A script of timed actions: JSON Lines, each `{"t": 500, "action": {"increase": {}}}` with
/// `t` in milliseconds from the start (never decreasing) and the action's Codable encoding.
struct ActionScript: Sendable {
  /// One scripted action.
  struct Step: Sendable {
    var time: Duration
    var action: JSONValue
    var line: Int
  }

  var path: String
  var steps: [Step]

  /// Reads a script file.
  init(path: String) throws(ScriptError) {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw .unreadable(path: path, reason: "no such readable file")
    }
    let lines = String(decoding: data, as: UTF8.self)
      .split(separator: "\n", omittingEmptySubsequences: false)
    self.path = path
    steps = []
    var last = Duration.zero
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
      let milliseconds: Double
      switch object["t"] {
      case .int(let value)?: milliseconds = Double(value)
      case .double(let value)?: milliseconds = value
      default:
        throw .malformed(path: path, line: line, reason: "'t' (milliseconds) must be a number")
      }
      guard let action = object["action"] else {
        throw .malformed(path: path, line: line, reason: "missing field 'action'")
      }
      let time = Duration.nanoseconds(Int64((milliseconds * 1_000_000).rounded()))
      guard milliseconds >= 0, time >= last else {
        throw .malformed(
          path: path, line: line, reason: "'t' must not go back in time (\(milliseconds) ms)")
      }
      last = time
      steps.append(Step(time: time, action: action, line: line))
    }
  }
}

/// Why a script could not be used.
enum ScriptError: Error, Sendable, CustomStringConvertible {
  case unreadable(path: String, reason: String)
  case malformed(path: String, line: Int, reason: String)
  case undecodableAction(path: String, line: Int, reason: String)
  case notDecodable(String)
  case recordingFailed(String)

  var description: String {
    switch self {
    case .unreadable(let path, let reason): "cannot read script '\(path)': \(reason)"
    case .malformed(let path, let line, let reason): "\(path):\(line): malformed step: \(reason)"
    case .undecodableAction(let path, let line, let reason):
      "\(path):\(line): the action cannot be decoded: \(reason)"
    case .notDecodable(let type): "the \(type) type is not Decodable, so it cannot be scripted"
    case .recordingFailed(let reason): "recording failed: \(reason)"
    }
  }
}

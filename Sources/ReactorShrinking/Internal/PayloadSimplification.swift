import ReactorScript
import ReactorTracing

/// Simpler payloads for a step, as Hypothesis simplifies: the values inside an action's (or
/// event's) case, never the case itself.
enum PayloadSimplification {
  /// The step's input with one value simplified, for each value and each simpler form of it
  /// (an empty then a halved string, zero then half a number, `false`), in order.
  static func candidates(for input: ReactorScript.Step.Input) -> [ReactorScript.Step.Input] {
    switch input {
    case .action(let value): insideCase(value).map { .action($0) }
    case .event(let value): insideCase(value).map { .event($0) }
    }
  }

  /// `{"case": payload}` with the payload simplified; a bare case has nothing to simplify.
  private static func insideCase(_ value: JSONValue) -> [JSONValue] {
    guard case .object(let object) = value, object.count == 1,
      let (name, payload) = object.members.first
    else { return [] }
    return simpler(payload).map { .object(JSONObject([(name, $0)])) }
  }

  /// `value` with one part simplified, every way.
  private static func simpler(_ value: JSONValue) -> [JSONValue] {
    switch value {
    case .string(let text) where !text.isEmpty:
      let half = String(text.prefix(text.count / 2))
      return half.isEmpty ? [.string("")] : [.string(""), .string(half)]
    case .int(let number) where number != 0:
      return number / 2 == 0 ? [.int(0)] : [.int(0), .int(number / 2)]
    case .uint(let number) where number != 0:
      return number / 2 == 0 ? [.uint(0)] : [.uint(0), .uint(number / 2)]
    case .double(let number) where number != 0 && number.isFinite:
      let half = (number / 2).rounded(.towardZero)
      return half == 0 ? [.double(0)] : [.double(0), .double(half)]
    case .bool(true):
      return [.bool(false)]
    case .array(let elements):
      return elements.indices.flatMap { index in
        simpler(elements[index]).map { element in
          var copy = elements
          copy[index] = element
          return JSONValue.array(copy)
        }
      }
    case .object(let object):
      return object.members.flatMap { member in
        simpler(member.value).map { replaced in
          var copy = object
          copy[member.key] = replaced
          return JSONValue.object(copy)
        }
      }
    default:
      return []
    }
  }
}

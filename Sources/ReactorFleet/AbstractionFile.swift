public import ReactorStateMachines
import ReactorTracing

/// The state abstraction of each reactor, saved so that summaries made on other days and
/// other machines abstract states the same way and so group together.
///
/// The file is one JSON object from reactor type to ``StateAbstraction/summaryText``:
///
/// ```json
/// {"ReactorExamples.CounterReactor":"fields:alertMessage=event,isLoading=value,value=value"}
/// ```
///
/// `summarize --abstraction FILE` reads it when it exists, infers the abstraction of any
/// reactor it lacks from the traces at hand, and saves the file with those added.
public struct AbstractionFile: Sendable, Hashable {
  /// The abstraction of each reactor, by its module-qualified type name.
  public var abstractions: [String: StateAbstraction]

  /// Creates a file's contents.
  public init(abstractions: [String: StateAbstraction] = [:]) {
    self.abstractions = abstractions
  }

  /// Reads a saved file's bytes.
  ///
  /// - Parameters:
  ///   - bytes: The file's contents.
  ///   - path: What errors call it.
  /// - Throws: ``FleetError/malformedAbstraction(_:)`` naming the file.
  public init(bytes: [UInt8], path: String) throws(FleetError) {
    let json: JSONValue
    do {
      json = try JSONValue(parsing: bytes)
    } catch {
      throw .malformedAbstraction("\(path) is not JSON (\(error))")
    }
    guard case .object(let object) = json else {
      throw .malformedAbstraction("\(path) holds \(json.kindName), not an object of reactors")
    }
    var abstractions: [String: StateAbstraction] = [:]
    for (reactor, value) in object.members {
      guard let text = value.stringValue else {
        throw .malformedAbstraction("\(path): '\(reactor)' is \(value.kindName), not text")
      }
      do {
        abstractions[reactor] = try StateAbstraction(summaryText: text)
      } catch {
        throw .malformedAbstraction("\(path): '\(reactor)': \(error.description)")
      }
    }
    self.abstractions = abstractions
  }

  /// The file's bytes: one pretty-printed object, reactors in order, ending in a newline.
  public var bytes: [UInt8] {
    let lines = abstractions.keys.sorted().map { reactor in
      "  " + JSONValue.string(reactor).serializedString + ": "
        + JSONValue.string(abstractions[reactor]!.summaryText).serializedString
    }
    return Array(("{\n" + lines.joined(separator: ",\n") + "\n}\n").utf8)
  }
}

import ArgumentParser
import ReactorScript
import ReactorTracing

/// An exploration's inputs once read: the alphabet's encodings and the metadata.
struct ExplorationInputs {
  var alphabet: [JSONValue] = []
  var metadata: [String: String] = [:]
  /// The reactor the script's header names, or else the first trace's.
  var reactor: String?

  /// Reads the script and traces of `arguments`, plus `extraTraces`.
  ///
  /// - Throws: The script's or a trace's error.
  ///
  /// The alphabet is their distinct actions in order of first appearance. Without a script, the
  /// first trace's header gives the metadata and the reactor.
  init(_ arguments: ExplorationArguments, extraTraces: [String] = []) throws {
    var seen: Set<JSONValue> = []
    func add(_ value: JSONValue) {
      if seen.insert(ScriptCase.expanded(value)).inserted { alphabet.append(value) }
    }
    var base: [String: String] = [:]
    if let path = arguments.script {
      let script = try ReactorScript(path: path)
      reactor = script.reactor
      base = script.metadata
      for step in script.steps {
        if case .action(let value) = step.input { add(value) }
      }
    }
    for path in arguments.actionTraces + extraTraces {
      let reader = try TraceReader(path: path, verifyingStates: false)
      if reactor == nil {
        reactor = reader.header.reactor
        base = reader.header.metadata.filter { $0.key != ScriptedEvents.metadataKey }
      }
      while let event = try reader.next() {
        if case .action(let action) = event.kind, case .sent = action.source,
          let value = action.value
        {
          add(value)
        }
      }
    }
    metadata = arguments.metadata(over: base)
  }
}

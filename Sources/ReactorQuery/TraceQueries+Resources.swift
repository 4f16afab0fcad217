import ReactorTracing

extension TraceQueries {
  /// A resource: an opened trace's header or schema.
  public struct Resource: Sendable, Hashable {
    /// Its URI: `reactor-trace://header/PATH` or `reactor-trace://schema/PATH`.
    public let uri: String
    /// Its name.
    public let name: String
    /// What it is.
    public let description: String
  }

  /// The header and schema of each trace opened so far.
  public var resources: [Resource] {
    openedTraces.flatMap { name in
      [
        Resource(
          uri: "reactor-trace://header/" + name, name: name + " header",
          description: "The header of \(name): format, recorder, clock, metadata, reactors."),
        Resource(
          uri: "reactor-trace://schema/" + name, name: name + " schema",
          description: "The schema of each reactor type's Action, Mutation and State in \(name)."),
      ]
    }
  }

  /// The JSON text of a resource.
  /// - Throws: ``QueryError`` for a URI that names no trace under the root.
  public func read(uri: String) -> Result<String, QueryError> {
    do throws(QueryError) {
      let kinds = ["reactor-trace://header/", "reactor-trace://schema/"]
      guard let prefix = kinds.first(where: { uri.hasPrefix($0) }) else {
        throw .unknownName(
          kind: "resource", name: String(uri.prefix(200)),
          known: "resources are reactor-trace://header/PATH and reactor-trace://schema/PATH")
      }
      let trace = String(uri.dropFirst(prefix.count))
      let index = try index(ToolArguments(["trace": .string(trace)], accepted: ["trace"]))
      var object = JSONObject()
      object["trace"] = .string(index.name)
      if prefix == kinds[0] {
        object["header"] = (try? JSONValue(parsing: index.header.serializedLine)) ?? .null
        object["events"] = .int(Int64(index.eventCount))
        object["reactors"] = .array(
          index.reactors.keys.sorted().map { id in
            let info = index.reactors[id]!
            var reactor = JSONObject()
            reactor["reactor"] = .int(Int64(id))
            reactor["type"] = .string(info.type)
            if let name = info.name { reactor["name"] = .string(name) }
            if let parent = info.parent { reactor["parent"] = .int(Int64(parent)) }
            reactor["introducedAt"] = .int(Int64(info.introducedAt))
            if let released = info.releasedAt { reactor["releasedAt"] = .int(Int64(released)) }
            return .object(reactor)
          })
        object["warnings"] = .array(index.warnings.map { .string($0) })
      } else {
        object["schemas"] = .object(JSONObject(index.schemas.sorted { $0.key < $1.key }))
      }
      return .success(String(decoding: JSONValue.object(object).serialized, as: UTF8.self))
    } catch {
      return .failure(error)
    }
  }
}

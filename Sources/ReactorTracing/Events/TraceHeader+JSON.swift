extension TraceHeader {
  /// The header as the first trace line, without the trailing newline.
  public var serializedLine: [UInt8] {
    var line = LineWriter()
    line.begin()
    line.member("format", TraceHeader.formatName)
    line.member("version", version.description)
    line.member("reactor", reactor)
    if let recorder { line.member("recorder", recorder) }
    var clockObject = JSONObject()
    clockObject["name"] = .string(clock.name)
    if let origin = clock.origin { clockObject["origin"] = .string(origin) }
    line.member("clock", .object(clockObject))
    line.member("schema", schema.json)
    switch initialState {
    case .json(let state): line.member("initialState", state)
    case .description(let description): line.member("initialStateDescription", description)
    }
    line.member("initialStateHash", initialStateHash.description)
    line.member("metadata", .object(JSONObject(metadata.map { ($0.key, .string($0.value)) })))
    if !redactions.isEmpty { line.member("redactions", .array(redactions.map { .string($0) })) }
    if let window {
      line.member(
        "window",
        [
          "firstSequence": .int(Int64(window.firstSequence)),
          "droppedEvents": .int(Int64(window.droppedEvents)),
        ])
    }
    line.end()
    return line.bytes
  }

  /// Reads a header from the parsed first line of a file, checking the format and version.
  /// - Throws: ``TraceHeaderProblem`` saying why the line is not a header this reader reads.
  static func decode(_ json: JSONValue) throws(TraceHeaderProblem) -> TraceHeader {
    guard case .object(let object) = json, case .string(let format)? = object["format"] else {
      throw .notATrace("its first line has no \"format\" member")
    }
    guard format == TraceHeader.formatName else { throw .unknownFormat(format) }
    guard case .string(let versionText)? = object["version"],
      let version = TraceFormatVersion(versionText)
    else { throw .malformed("'version' must be a string like \"1.0\"") }
    guard version.major <= TraceHeader.currentVersion.major else {
      throw .unsupportedVersion(version)
    }
    do throws(TraceFormatError) {
      let fields = try JSONFields(json, what: "the header")
      let clockFields = try JSONFields(try fields.value("clock"), what: "'clock'")
      let initialState: State
      if let state = fields.optionalValue("initialState") {
        initialState = .json(state)
      } else if let description = try fields.optionalString("initialStateDescription") {
        initialState = .description(description)
      } else {
        throw TraceFormatError("missing field 'initialState'")
      }
      let hashText = try fields.string("initialStateHash")
      guard let hash = TraceHash(hex: hashText) else {
        throw TraceFormatError("'initialStateHash' must be 16 hexadecimal digits")
      }
      var metadata: [String: String] = [:]
      if let metadataValue = fields.optionalValue("metadata") {
        guard case .object(let members) = metadataValue else {
          throw TraceFormatError("'metadata' must be an object")
        }
        for (key, value) in members.members {
          metadata[key] = value.stringValue ?? value.serializedString
        }
      }
      var redactions: [String] = []
      if let redactionValue = fields.optionalValue("redactions") {
        guard case .array(let rules) = redactionValue,
          rules.allSatisfy({ $0.stringValue != nil })
        else { throw TraceFormatError("'redactions' must be an array of strings") }
        redactions = rules.compactMap(\.stringValue)
      }
      var window: Window?
      if let windowValue = fields.optionalValue("window") {
        let windowFields = try JSONFields(windowValue, what: "'window'")
        window = Window(
          firstSequence: try windowFields.integer("firstSequence", minimum: 1),
          droppedEvents: try windowFields.integer("droppedEvents", minimum: 0))
      }
      let schema: TraceSchema
      let schemaValue = try fields.value("schema")
      do {
        schema = try TraceSchema(json: schemaValue)
      } catch {
        throw TraceFormatError("'schema': \(error)")
      }
      return TraceHeader(
        version: version, reactor: try fields.string("reactor"),
        recorder: try fields.optionalString("recorder"),
        clock: Clock(
          name: try clockFields.string("name"), origin: try clockFields.optionalString("origin")),
        schema: schema, initialState: initialState, initialStateHash: hash,
        metadata: metadata, redactions: redactions, window: window)
    } catch {
      throw .malformed(error.description)
    }
  }
}

/// Why a first line is not a header this reader can read.
enum TraceHeaderProblem: Error {
  case notATrace(String)
  case unknownFormat(String)
  case unsupportedVersion(TraceFormatVersion)
  case malformed(String)
}

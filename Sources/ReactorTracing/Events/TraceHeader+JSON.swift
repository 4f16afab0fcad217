import ReactorJSON
import ReactorSchema

extension TraceHeader {
  /// The header as the first trace line, without the trailing newline.
  public var serializedLine: [UInt8] {
    var line = LineWriter()
    line.begin()
    line.member("format", TraceHeader.formatName)
    line.member("version", version.description)
    line.member("reactor", reactor)
    if let recorder { line.member("recorder", recorder) }
    line.member("clock", clock.json)
    line.member("schema", schema.json)
    Self.write(initialState: initialState, hash: initialStateHash, to: &line)
    Self.write(metadata: metadata, redactions: redactions, window: window, to: &line)
    line.end()
    return line.bytes
  }

  /// Appends the members a trace's and a session's header end with: `metadata`, then
  /// `redactions` and `window` when there are any.
  static func write(
    metadata: [String: String], redactions: [String], window: Window?, to line: inout LineWriter
  ) {
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
  }

  /// Reads a header's `window`, if it has one.
  /// - Throws: What is malformed.
  static func window(_ fields: JSONFields) throws(TraceFormatError) -> Window? {
    guard let value = fields.optionalValue("window") else { return nil }
    let windowFields = try JSONFields(value, what: "'window'")
    return Window(
      firstSequence: try windowFields.integer("firstSequence", minimum: 1),
      droppedEvents: try windowFields.integer("droppedEvents", minimum: 0))
  }

  /// Reads a header from the parsed first line of a file, checking the format and version.
  /// - Throws: ``TraceHeaderProblem`` saying why the line is not a header this reader reads.
  static func decode(_ json: JSONValue) throws(TraceHeaderProblem) -> TraceHeader {
    let version = try formatVersion(json)
    guard version.major <= TraceHeader.currentVersion.major else {
      throw .unsupportedVersion(version)
    }
    do throws(TraceFormatError) {
      let fields = try JSONFields(json, what: "the header")
      let clock = try Clock(json: try fields.value("clock"))
      let (initialState, hash) = try Self.initialState(fields)
      let metadata = try Self.metadata(fields)
      let redactions = try Self.redactions(fields)
      let window = try Self.window(fields)
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
        clock: clock, schema: schema, initialState: initialState, initialStateHash: hash,
        metadata: metadata, redactions: redactions, window: window)
    } catch {
      throw .malformed(error.description)
    }
  }
}

extension TraceHeader {
  /// The version a first line declares, after checking that it declares this format.
  /// - Throws: ``TraceHeaderProblem`` when the line is not a header of this format.
  static func formatVersion(_ json: JSONValue) throws(TraceHeaderProblem) -> TraceFormatVersion {
    guard case .object(let object) = json, case .string(let format)? = object["format"] else {
      throw .notATrace("its first line has no \"format\" member")
    }
    guard format == TraceHeader.formatName else { throw .unknownFormat(format) }
    guard case .string(let versionText)? = object["version"],
      let version = TraceFormatVersion(versionText)
    else { throw .malformed("'version' must be a string like \"1.0\"") }
    return version
  }

  /// A header's `metadata`: its string members, others as their JSON text.
  static func metadata(_ fields: JSONFields) throws(TraceFormatError) -> [String: String] {
    var metadata: [String: String] = [:]
    if let metadataValue = fields.optionalValue("metadata") {
      guard case .object(let members) = metadataValue else {
        throw TraceFormatError("'metadata' must be an object")
      }
      for (key, value) in members.members {
        metadata[key] = value.stringValue ?? value.serializedString
      }
    }
    return metadata
  }

  /// A header's `redactions`.
  static func redactions(_ fields: JSONFields) throws(TraceFormatError) -> [String] {
    guard let redactionValue = fields.optionalValue("redactions") else { return [] }
    guard case .array(let rules) = redactionValue, rules.allSatisfy({ $0.stringValue != nil })
    else { throw TraceFormatError("'redactions' must be an array of strings") }
    return rules.compactMap(\.stringValue)
  }

  /// The state members of a header or a reactor introduction: `initialState` or
  /// `initialStateDescription`, and `initialStateHash`.
  static func initialState(
    _ fields: JSONFields
  ) throws(TraceFormatError) -> (State, TraceHash) {
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
    return (initialState, hash)
  }

  /// Appends the state members of a header or an introduction to `line`.
  static func write(initialState: State, hash: TraceHash, to line: inout LineWriter) {
    switch initialState {
    case .json(let state): line.member("initialState", state)
    case .description(let description): line.member("initialStateDescription", description)
    }
    line.member("initialStateHash", hash.description)
  }
}

extension TraceHeader.Clock {
  /// The clock as its JSON object.
  var json: JSONValue {
    var object = JSONObject()
    object["name"] = .string(name)
    if let origin { object["origin"] = .string(origin) }
    return .object(object)
  }

  /// Reads a header's `clock`.
  init(json: JSONValue) throws(TraceFormatError) {
    let fields = try JSONFields(json, what: "'clock'")
    self.init(name: try fields.string("name"), origin: try fields.optionalString("origin"))
  }
}

/// Why a first line is not a header this reader can read.
enum TraceHeaderProblem: Error {
  case notATrace(String)
  case unknownFormat(String)
  case unsupportedVersion(TraceFormatVersion)
  case malformed(String)

  /// The reader's error for the file at `path`.
  func readError(path: String) -> TraceReadError {
    switch self {
    case .notATrace(let reason): .notATrace(path: path, reason: reason)
    case .unknownFormat(let format): .unknownFormat(path: path, format: format)
    case .unsupportedVersion(let version): .unsupportedVersion(path: path, version: version)
    case .malformed(let reason): .malformedHeader(path: path, reason: reason)
    }
  }
}

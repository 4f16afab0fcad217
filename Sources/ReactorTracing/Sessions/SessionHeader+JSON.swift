import ReactorJSON

extension SessionHeader {
  /// The header as the first line of a session trace, without the trailing newline.
  public var serializedLine: [UInt8] {
    var line = LineWriter()
    line.begin()
    line.member("format", TraceHeader.formatName)
    line.member("version", version.description)
    if let recorder { line.member("recorder", recorder) }
    line.member("clock", clock.json)
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

  /// Reads a session header (format 2.x) from the parsed first line of a file whose format
  /// and version were checked.
  /// - Throws: What is missing or malformed.
  static func decode(
    _ json: JSONValue, version: TraceFormatVersion
  ) throws(TraceFormatError) -> SessionHeader {
    let fields = try JSONFields(json, what: "the header")
    var window: TraceHeader.Window?
    if let windowValue = fields.optionalValue("window") {
      let windowFields = try JSONFields(windowValue, what: "'window'")
      window = TraceHeader.Window(
        firstSequence: try windowFields.integer("firstSequence", minimum: 1),
        droppedEvents: try windowFields.integer("droppedEvents", minimum: 0))
    }
    return SessionHeader(
      version: version, recorder: try fields.optionalString("recorder"),
      clock: try TraceHeader.Clock(json: try fields.value("clock")),
      metadata: try TraceHeader.metadata(fields), redactions: try TraceHeader.redactions(fields),
      window: window)
  }
}

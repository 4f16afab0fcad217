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
    TraceHeader.write(metadata: metadata, redactions: redactions, window: window, to: &line)
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
    let window = try TraceHeader.window(fields)
    return SessionHeader(
      version: version, recorder: try fields.optionalString("recorder"),
      clock: try TraceHeader.Clock(json: try fields.value("clock")),
      metadata: try TraceHeader.metadata(fields), redactions: try TraceHeader.redactions(fields),
      window: window)
  }
}

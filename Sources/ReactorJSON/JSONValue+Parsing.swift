extension JSONValue {
  /// Parses one JSON document from UTF-8 bytes, strictly as RFC 8259 defines it.
  ///
  /// Only space, tab, carriage return and line feed count as whitespace; comments, trailing
  /// commas, `NaN` and invalid UTF-8 are errors. Integers without a fraction or exponent become
  /// ``int(_:)``, or ``uint(_:)`` above `Int64.max`; other numbers become ``double(_:)``,
  /// correctly rounded. Objects are sorted by key, and a repeated key is an error.
  ///
  /// ```swift
  /// let value = try JSONValue(parsing: Array(#"{"seq":40,"kind":"mutation"}"#.utf8))
  /// value["seq"]  // .int(40)
  /// ```
  ///
  /// - Parameter bytes: The document, encoded as UTF-8.
  /// - Throws: ``JSONParseError`` with the column of the first problem.
  public init(parsing bytes: some Collection<UInt8>) throws(JSONParseError) {
    let result = bytes.withContiguousStorageIfAvailable { buffer in
      Result { () throws(JSONParseError) in
        try JSONValue(parsingBytesIn: UnsafeRawBufferPointer(buffer))
      }
    }
    if let result {
      self = try result.get()
    } else {
      let contiguous = Array(bytes)
      self = try contiguous.withUnsafeBytes { buffer in
        Result { () throws(JSONParseError) in try JSONValue(parsingBytesIn: buffer) }
      }.get()
    }
  }

  /// Parses one JSON document from text, strictly as RFC 8259 defines it.
  ///
  /// The rules are those for parsing bytes: whitespace, numbers, strings and objects as
  /// RFC 8259 defines them, objects sorted by key, a repeated key an error.
  ///
  /// - Parameter text: The document.
  /// - Throws: ``JSONParseError`` with the column (counted in UTF-8 bytes) of the first
  ///   problem.
  public init(parsing text: String) throws(JSONParseError) {
    var text = text
    self = try text.withUTF8 { buffer in
      Result { () throws(JSONParseError) in
        try JSONValue(parsingBytesIn: UnsafeRawBufferPointer(buffer))
      }
    }.get()
  }

  /// Parses one JSON document from the bytes in `buffer`.
  ///
  /// The fast path for callers that already hold the bytes in memory; they need stay valid
  /// only during the call. To parse many documents, keep a ``JSONParser`` instead: it reuses
  /// its working storage and remembers recent strings.
  init(parsingBytesIn buffer: UnsafeRawBufferPointer) throws(JSONParseError) {
    var parser = JSONParser()
    self = try parser.parse(buffer)
  }
}

import ReactorJSON

/// Writes one compact JSON object at a time in a fixed member order: how trace lines are
/// produced without building a JSON tree for the line itself.
struct LineWriter {
  var bytes: [UInt8] = []
  private var needsComma = false

  init() {}

  /// Appends `event` as one trace line, newline included.
  mutating func appendLine(_ event: TraceEvent) {
    event.write(to: &self)
    endLine()
  }

  mutating func begin() {
    if needsComma { bytes.append(UInt8(ascii: ",")) }
    bytes.append(UInt8(ascii: "{"))
    needsComma = false
  }

  mutating func end() {
    bytes.append(UInt8(ascii: "}"))
    needsComma = true
  }

  /// Appends a member's key and colon; keys are ASCII literals that need no escaping.
  mutating func key(_ key: StaticString) {
    if needsComma { bytes.append(UInt8(ascii: ",")) }
    bytes.append(UInt8(ascii: "\""))
    bytes.append(
      contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
    bytes.append(UInt8(ascii: "\""))
    bytes.append(UInt8(ascii: ":"))
    needsComma = false
  }

  mutating func value(_ value: JSONValue) {
    if needsComma { bytes.append(UInt8(ascii: ",")) }
    JSONWriter.write(value, to: &bytes)
    needsComma = true
  }

  mutating func member(_ key: StaticString, _ value: JSONValue) {
    self.key(key)
    self.value(value)
  }

  mutating func member(_ key: StaticString, _ value: String) {
    self.key(key)
    JSONWriter.writeString(value, to: &bytes)
    needsComma = true
  }

  /// Appends bytes of JSON as they are: a run of punctuation and keys that event lines share.
  ///
  /// The caller keeps track of commas: after it, the next member gets none.
  mutating func raw(_ text: StaticString) {
    bytes.append(
      contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    needsComma = false
  }

  /// Appends bytes of JSON as they are; see ``raw(_:)-(StaticString)``.
  mutating func raw(_ json: [UInt8]) {
    bytes.append(contentsOf: json)
    needsComma = false
  }

  /// Appends bytes of JSON as they are; see ``raw(_:)-(StaticString)``.
  mutating func raw(_ json: UnsafeBufferPointer<UInt8>) {
    bytes.append(contentsOf: json)
    needsComma = false
  }

  /// Appends an integer, as ``raw(_:)-(StaticString)`` appends text.
  mutating func raw(_ integer: Int) {
    JSONWriter.writeInteger(Int64(integer), to: &bytes)
    needsComma = false
  }

  /// Appends a hash in quotes, as ``raw(_:)-(StaticString)`` appends text.
  mutating func raw(_ hash: TraceHash) {
    bytes.append(UInt8(ascii: "\""))
    hash.write(to: &bytes)
    bytes.append(UInt8(ascii: "\""))
    needsComma = false
  }

  /// Ends a line begun with ``begin()``.
  mutating func endLine() {
    bytes.append(UInt8(ascii: "\n"))
    needsComma = false
  }

  mutating func member(_ key: StaticString, _ value: Int) {
    member(key, Int64(value))
  }

  mutating func member(_ key: StaticString, _ value: Int64) {
    self.key(key)
    JSONWriter.writeInteger(value, to: &bytes)
    needsComma = true
  }

  mutating func array<Elements: Sequence>(
    _ elements: Elements, _ body: (inout LineWriter, Elements.Element) -> Void
  ) {
    if needsComma { bytes.append(UInt8(ascii: ",")) }
    bytes.append(UInt8(ascii: "["))
    needsComma = false
    for element in elements { body(&self, element) }
    bytes.append(UInt8(ascii: "]"))
    needsComma = true
  }
}

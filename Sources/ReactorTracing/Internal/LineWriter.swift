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

  /// Appends a member whose value is already canonical JSON.
  mutating func member(_ key: StaticString, serialized value: [UInt8]) {
    self.key(key)
    bytes.append(contentsOf: value)
    needsComma = true
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

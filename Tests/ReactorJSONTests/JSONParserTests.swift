import Testing

@testable import ReactorJSON

@Suite("JSON parsing")
struct JSONParserTests {
  /// The error parsing `text` throws, or `nil` if it parses.
  private func parseError(_ text: String) -> JSONParseError? {
    do {
      _ = try JSONValue(parsing: text)
      return nil
    } catch {
      return error
    }
  }

  /// The error parsing `bytes` throws, or `nil` if they parse.
  private func parseError(bytes: [UInt8]) -> JSONParseError? {
    do {
      _ = try JSONValue(parsing: bytes)
      return nil
    } catch {
      return error
    }
  }

  // MARK: - Values

  @Test func literalsParseToTheirValues() throws {
    #expect(try JSONValue(parsing: "null") == .null)
    #expect(try JSONValue(parsing: "true") == .bool(true))
    #expect(try JSONValue(parsing: "false") == .bool(false))
    #expect(try JSONValue(parsing: #""text""#) == .string("text"))
  }

  @Test func whitespaceAroundAndBetweenTokensIsSkipped() throws {
    let value = try JSONValue(parsing: " \t\r\n{ \"a\" :\n[ 1 ,\t2 ] , \"b\"\r: null }\n ")
    #expect(value == ["a": [1, 2], "b": nil])
  }

  @Test func onlyJSONWhitespaceIsAccepted() {
    #expect(
      parseError("\u{0C}1")
        == .unexpectedCharacter(column: 1, found: "byte 0x0C", expected: "a value"))
    #expect(
      parseError("1\u{A0}")
        == .trailingCharacters(column: 2))
    #expect(
      parseError("\u{A0}1")
        == .unexpectedCharacter(column: 1, found: "'\u{A0}' (U+00A0)", expected: "a value"))
  }

  @Test func objectMembersAreSortedByKeyBytes() throws {
    let value = try JSONValue(parsing: #"{"t":1,"diff":2,"a":3,"Z":4,"é":5,"aa":6}"#)
    let object = try #require(value.objectValue)
    #expect(object.keys == ["Z", "a", "aa", "diff", "t", "é"])
    #expect(object["diff"] == 2)
  }

  @Test func keysThatDifferOnlyInNormalizationAreDistinct() throws {
    let value = try JSONValue(parsing: "{\"\u{E9}\":1,\"e\u{301}\":2}")
    let object = try #require(value.objectValue)
    #expect(object.count == 2)
    #expect(object["\u{E9}"] == 1)
    #expect(object["e\u{301}"] == 2)
    #expect(JSONValue.string("\u{E9}") != .string("e\u{301}"))
  }

  @Test func emptyContainersParse() throws {
    #expect(try JSONValue(parsing: "[]") == [])
    #expect(try JSONValue(parsing: "{}") == .object(JSONObject()))
    #expect(
      try JSONValue(parsing: "[[],{},[{}]]") == [
        [], .object(JSONObject()), [.object(JSONObject())],
      ])
  }

  @Test func typicalTraceLineParses() throws {
    let line = #"""
      {"cause":{"action":12},"hash":"0123456789abcdef","id":12,"kind":"mutation","label":"setLoading(true)","seq":40,"t":1234567,"diff":[{"p":["isLoading"],"v":true}],"value":{"setLoading":{"_0":true}}}
      """#
    let value = try JSONValue(parsing: line)
    #expect(value["seq"] == 40)
    #expect(value["cause"]?["action"] == 12)
    #expect(value["diff"] == [["p": ["isLoading"], "v": true]])
    #expect(value["value"]?["setLoading"]?["_0"] == true)
    #expect(
      value.objectValue?.keys == [
        "cause", "diff", "hash", "id", "kind", "label", "seq", "t", "value",
      ])
  }

  @Test func sortedCompactInputSerializesBackUnchanged() throws {
    let documents = [
      #"{"cause":{"action":12},"diff":[{"p":["isLoading"],"v":true}],"hash":"0123456789abcdef","id":12,"kind":"mutation","label":"setLoading(true)","seq":40,"t":1234567,"value":{"setLoading":{"_0":true}}}"#,
      #"[1,-2,3.5,-0.25,1e+21,1.5e-7,18446744073709551615,-9223372036854775808,"\"\\\n\u0001",null,true,false,{},[]]"#,
      #"{"":0,"A":[{"b":{"c":[[[]]]}}],"a":"é😀"}"#,
    ]
    for document in documents {
      #expect(try JSONValue(parsing: document).serializedString == document)
    }
  }

  @Test func parsingAcceptsAnyCollectionOfBytes() throws {
    let bytes = Array(#"{"a":[1,2,3]}"#.utf8)
    let expected: JSONValue = ["a": [1, 2, 3]]
    #expect(try JSONValue(parsing: bytes) == expected)
    #expect(try JSONValue(parsing: bytes[...]) == expected)
    #expect(try JSONValue(parsing: bytes.lazy.map { $0 }) == expected)
    #expect(try JSONValue(parsing: Substring(#"{"a":[1,2,3]}"#).utf8) == expected)
    let empty: [UInt8] = []
    #expect(throws: JSONParseError.unexpectedEnd(column: 1, expected: "a value")) {
      try JSONValue(parsing: empty)
    }
  }

  @Test func parserCanBeReusedForManyDocuments() throws {
    var parser = JSONParser()
    for index in 0..<300 {
      let key = "key\(index % 7)"
      let long = String(repeating: "x", count: index % 40)
      let text = #"{"\#(key)":"\#(long)","label":"setLoading(\#(index % 2 == 0))","n":\#(index)}"#
      if index % 50 == 3 {
        let bad = Array((text + "x").utf8)
        #expect(throws: JSONParseError.self) {
          try bad.withUnsafeBytes { try parser.parse($0) }
        }
      }
      let bytes = Array(text.utf8)
      let value = try bytes.withUnsafeBytes { try parser.parse($0) }
      #expect(value[key] == .string(long))
      #expect(value["label"] == .string("setLoading(\(index % 2 == 0))"))
      #expect(value["n"] == .int(Int64(index)))
    }
  }

  @Test func shortStringsNearTheEndOfTheInputParse() throws {
    var parser = JSONParser()
    for length in 0...20 {
      for _ in 0..<80 {
        let string = String((0..<length).map { Character(Unicode.Scalar(UInt8(97 + $0 % 26))) })
        let bytes = Array("\"\(string)\"".utf8)
        #expect(try bytes.withUnsafeBytes { try parser.parse($0) } == .string(string))
        let similar = String(string.dropLast()) + "#"
        if length > 0 {
          let other = Array("\"\(similar)\"".utf8)
          #expect(try other.withUnsafeBytes { try parser.parse($0) } == .string(similar))
        }
      }
    }
  }

  // MARK: - Numbers

  @Test func integersParseAsIntWhenTheyFit() throws {
    #expect(try JSONValue(parsing: "0") == .int(0))
    #expect(try JSONValue(parsing: "-17") == .int(-17))
    let max = try JSONValue(parsing: "9223372036854775807")
    guard case .int(Int64.max) = max else {
      Issue.record("got \(max)")
      return
    }
    let min = try JSONValue(parsing: "-9223372036854775808")
    guard case .int(Int64.min) = min else {
      Issue.record("got \(min)")
      return
    }
  }

  @Test func integersAboveInt64ParseAsUInt() throws {
    let above = try JSONValue(parsing: "9223372036854775808")
    guard case .uint(9_223_372_036_854_775_808) = above else {
      Issue.record("got \(above)")
      return
    }
    let max = try JSONValue(parsing: "18446744073709551615")
    guard case .uint(UInt64.max) = max else {
      Issue.record("got \(max)")
      return
    }
  }

  @Test func integersBeyondSixtyFourBitsParseAsDouble() throws {
    let big = try JSONValue(parsing: "18446744073709551616")
    guard case .double(18_446_744_073_709_551_616) = big else {
      Issue.record("got \(big)")
      return
    }
    let negative = try JSONValue(parsing: "-9223372036854775809")
    guard case .double(-9_223_372_036_854_775_808) = negative else {
      Issue.record("got \(negative)")
      return
    }
    let huge = try JSONValue(parsing: "1" + String(repeating: "0", count: 300))
    guard case .double(1e300) = huge else {
      Issue.record("got \(huge)")
      return
    }
  }

  @Test func negativeZeroParsesAsZero() throws {
    let integer = try JSONValue(parsing: "-0")
    guard case .int(0) = integer else {
      Issue.record("got \(integer)")
      return
    }
    let double = try JSONValue(parsing: "-0.0")
    guard case .double(let zero) = double else {
      Issue.record("got \(double)")
      return
    }
    #expect(zero == 0 && zero.sign == .minus)
    #expect(double.serializedString == "0")
  }

  @Test func fractionsAndExponentsParseAsCorrectlyRoundedDoubles() throws {
    let cases: [(String, Double)] = [
      ("1.5", 1.5), ("-0.25", -0.25), ("1e2", 100), ("1E2", 100), ("1e+2", 100),
      ("1e-2", 0.01), ("0.5e1", 5), ("2.5E-3", 0.0025), ("0.1", 0.1), ("0.3", 0.3),
      ("1.7976931348623157e308", .greatestFiniteMagnitude), ("5e-324", .leastNonzeroMagnitude),
      ("2.2250738585072014e-308", 2.2250738585072014e-308),
      ("9007199254740993.0", 9_007_199_254_740_992),
      ("123456789012345678901234567890", 1.2345678901234568e29),
      ("0.000000000000000000000000000001", 1e-30), ("1e-400", 0), ("4.35", 4.35),
      ("17976931348623157e292", .greatestFiniteMagnitude),
    ]
    for (text, expected) in cases {
      let value = try JSONValue(parsing: text)
      guard case .double(let double) = value, double == expected else {
        Issue.record("\(text) parsed as \(value), expected \(expected)")
        continue
      }
      #expect(double.bitPattern == expected.bitPattern, "\(text)")
    }
  }

  @Test func doublesParseToWhatTheStandardLibraryReads() throws {
    var generator = SeededGenerator(seed: 42)
    for _ in 0..<2_000 {
      let double = Double(
        bitPattern: generator.next() & ~(0x7FF << 52) | (generator.next() % 2046 + 1) << 52)
      for text in [
        double.description, "\(generator.next() % 100_000)e\(Int(generator.next() % 40) - 20)",
      ] {
        guard let expected = Double(text) else { continue }
        guard case .double(let parsed) = try JSONValue(parsing: text) else {
          #expect(Double(exactly: expected) != nil)
          continue
        }
        #expect(parsed.bitPattern == expected.bitPattern, "\(text)")
      }
    }
  }

  @Test func numbersTooLargeForADoubleAreRejected() {
    #expect(
      parseError("1e400") == .invalidNumber(column: 1, reason: "magnitude too large for a double"))
    #expect(
      parseError("[0,-1e400]")
        == .invalidNumber(column: 4, reason: "magnitude too large for a double"))
    #expect(parseError("1" + String(repeating: "0", count: 400)) != nil)
  }

  @Test func malformedNumbersAreRejectedAtTheOffendingByte() {
    #expect(parseError("01") == .invalidNumber(column: 2, reason: "leading zeros are not allowed"))
    #expect(parseError("-01") == .invalidNumber(column: 3, reason: "leading zeros are not allowed"))
    #expect(parseError("-a") == .invalidNumber(column: 2, reason: "expected a digit after '-'"))
    #expect(parseError("1.e3") == .invalidNumber(column: 3, reason: "expected a digit after '.'"))
    #expect(
      parseError("1e+x")
        == .invalidNumber(column: 4, reason: "expected a digit after the exponent's 'e'"))
    #expect(parseError(".5") == .unexpectedCharacter(column: 1, found: "'.'", expected: "a value"))
    #expect(parseError("+1") == .unexpectedCharacter(column: 1, found: "'+'", expected: "a value"))
    #expect(parseError("1.5.2") == .trailingCharacters(column: 4))
  }

  @Test func nonFiniteNumberWordsAreRejected() {
    #expect(parseError("NaN") == .unexpectedCharacter(column: 1, found: "'N'", expected: "a value"))
    #expect(
      parseError("[Infinity]")
        == .unexpectedCharacter(column: 2, found: "'I'", expected: "a value or ']'"))
    #expect(
      parseError("-Infinity") == .invalidNumber(column: 2, reason: "expected a digit after '-'"))
  }

  // MARK: - Strings

  @Test func everyEscapeDecodes() throws {
    let value = try JSONValue(parsing: #""\"\\\/\b\f\n\r\t\u0041\u00e9\u4E2D\ud83d\ude00\u0000""#)
    #expect(value == .string("\"\\/\u{8}\u{C}\n\r\tAé中😀\u{0}"))
  }

  @Test func rawMultibyteCharactersPassThrough() throws {
    #expect(try JSONValue(parsing: "\"é中😀\u{7F}\"") == .string("é中😀\u{7F}"))
  }

  @Test func longStringsWithEveryEscapeRoundTrip() throws {
    var text = ""
    let pieces = [
      "\"", "\\", "/", "\u{8}", "\u{C}", "\n", "\r", "\t", "\u{0}", "\u{1F}", "é", "😀", "a",
    ]
    var index = 0
    while text.unicodeScalars.count < 10_000 {
      text += pieces[index % pieces.count]
      index += 1
    }
    let serialized = JSONValue.string(text).serializedString
    #expect(try JSONValue(parsing: serialized) == .string(text))

    var escaped = "\""
    for scalar in text.unicodeScalars {
      escaped += String(format4: scalar)
    }
    escaped += "\""
    #expect(try JSONValue(parsing: escaped) == .string(text))
  }

  @Test func surrogatePairsDecodeToOneScalar() throws {
    #expect(try JSONValue(parsing: #""\ud83d\ude00""#) == .string("😀"))
    #expect(try JSONValue(parsing: #""\uD834\uDD1E""#) == .string("𝄞"))
    #expect(try JSONValue(parsing: #""\udbff\udfff""#) == .string("\u{10FFFF}"))
  }

  @Test func loneSurrogatesAreRejected() {
    #expect(
      parseError(#""\ud83d""#)
        == .invalidEscape(column: 2, reason: "unpaired high surrogate '\\ud83d'"))
    #expect(
      parseError(#""ab\ud83dx""#)
        == .invalidEscape(column: 4, reason: "unpaired high surrogate '\\ud83d'"))
    #expect(
      parseError(#""\ud83d\u0041""#)
        == .invalidEscape(column: 2, reason: "unpaired high surrogate '\\ud83d'"))
    #expect(
      parseError(#""\ud83d\ud83d""#)
        == .invalidEscape(column: 2, reason: "unpaired high surrogate '\\ud83d'"))
    #expect(
      parseError(#""\ude00""#)
        == .invalidEscape(column: 2, reason: "unpaired low surrogate '\\ude00'"))
  }

  @Test func malformedEscapesAreRejected() {
    #expect(parseError(#""\x""#) == .invalidEscape(column: 2, reason: "unknown escape '\\x'"))
    #expect(parseError(#""\'""#) == .invalidEscape(column: 2, reason: "unknown escape '\\''"))
    #expect(
      parseError(#""a\u12G4""#)
        == .invalidEscape(column: 3, reason: "'\\u' must be followed by 4 hexadecimal digits"))
    #expect(
      parseError(bytes: [0x22, 0x5C, 0x01, 0x22])
        == .invalidEscape(column: 2, reason: "'\\' followed by byte 0x01"))
  }

  @Test func rawControlCharactersInStringsAreRejected() {
    #expect(parseError("\"a\nb\"") == .unescapedControlCharacter(column: 3, byte: 0x0A))
    #expect(parseError("\"\t\"") == .unescapedControlCharacter(column: 2, byte: 0x09))
    #expect(parseError("\"\u{0}\"") == .unescapedControlCharacter(column: 2, byte: 0))
  }

  @Test func invalidUTF8IsRejectedWhereItStarts() {
    let cases: [([UInt8], Int, UInt8)] = [
      ([0x22, 0xFF, 0x22], 2, 0xFF),  // never valid
      ([0x22, 0x61, 0x80, 0x22], 3, 0x80),  // stray continuation byte
      ([0x22, 0xC0, 0x80, 0x22], 2, 0xC0),  // overlong NUL
      ([0x22, 0xE0, 0x80, 0x80, 0x22], 2, 0xE0),  // overlong
      ([0x22, 0xED, 0xA0, 0x80, 0x22], 2, 0xED),  // encoded surrogate
      ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 2, 0xF4),  // above U+10FFFF
      ([0x22, 0xE4, 0xB8, 0x22], 2, 0xE4),  // truncated by the quote
      ([0x22, 0x5C, 0x6E, 0xC3, 0x28, 0x22], 4, 0xC3),  // after an escape
      (
        [0x22, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0xF5, 0x80, 0x80, 0x80, 0x22], 10,
        0xF5
      ),
    ]
    for (bytes, column, byte) in cases {
      #expect(parseError(bytes: bytes) == .invalidUTF8(column: column, byte: byte), "\(bytes)")
    }
  }

  @Test func invalidUTF8OutsideStringsIsAnUnexpectedCharacter() {
    #expect(
      parseError(bytes: [0x5B, 0xFF, 0x5D])
        == .unexpectedCharacter(column: 2, found: "byte 0xFF", expected: "a value or ']'"))
    #expect(
      parseError(bytes: Array("[“]".utf8))
        == .unexpectedCharacter(column: 2, found: "'“' (U+201C)", expected: "a value or ']'"))
  }

  // MARK: - Structure errors

  @Test func errorDescriptionsNameColumnExpectationAndFinding() {
    let error = parseError(#"{"abc":1,"de"}"#)
    #expect(
      error == .unexpectedCharacter(column: 14, found: "'}'", expected: "':' after object key"))
    #expect(error?.description == "column 14: expected ':' after object key, found '}'")
    #expect(error?.column == 14)
    #expect(
      parseError("[1,")?.description == "column 4: expected a value after ',', found end of input")
    #expect(
      parseError(#"{"a":1,"a":2}"#)?.description == #"column 8: duplicate object key "a""#)
    #expect(
      parseError(bytes: [0x22, 0xFF, 0x22])?.description
        == "column 2: invalid UTF-8 sequence at byte 0xFF")
    #expect(
      parseError("\"\n\"")?.description
        == "column 2: control character 0x0A must be escaped in a string")
    #expect(
      parseError(String(repeating: "[", count: 600))?.description
        == "column 513: arrays and objects nested more than 512 levels deep")
    #expect(
      parseError("1 2")?.description == "column 3: unexpected characters after the JSON value")
    #expect(
      parseError("01")?.description == "column 2: invalid number: leading zeros are not allowed")
    #expect(parseError(#""\x""#)?.description == "column 2: invalid escape: unknown escape '\\x'")
  }

  @Test func truncatedDocumentsEndUnexpectedly() {
    let cases: [(String, String)] = [
      ("", "a value"),
      ("   ", "a value"),
      ("[", "a value or ']'"),
      ("[1", "',' or ']' after array element"),
      ("[1,", "a value after ','"),
      ("{", "a string key or '}'"),
      (#"{"a""#, "':' after object key"),
      (#"{"a":"#, "a value after ':'"),
      (#"{"a":1"#, "',' or '}' after object member"),
      (#"{"a":1,"#, "a string key after ','"),
      (#""abc"#, "'\"' to close the string"),
      (#""ab\"#, "an escape character after '\\'"),
      (#""\u12"#, "4 hexadecimal digits after '\\u'"),
      (#""\ud83d"#, "'\\u' escape of a low surrogate"),
      ("tru", "'true'"),
      ("fals", "'false'"),
      ("n", "'null'"),
      ("-", "a digit after '-'"),
      ("1.", "a digit after '.'"),
      ("1e", "a digit after the exponent's 'e'"),
      ("1e-", "a digit after the exponent's 'e'"),
    ]
    for (text, expected) in cases {
      #expect(
        parseError(text) == .unexpectedEnd(column: text.utf8.count + 1, expected: expected),
        "\(text)")
    }
    #expect(
      parseError(bytes: [0x22, 0xE4, 0xB8])
        == .unexpectedEnd(column: 4, expected: "the rest of a UTF-8 sequence"))
  }

  @Test func misspelledLiteralsAreRejectedAtTheFirstWrongByte() {
    #expect(parseError("trux") == .unexpectedCharacter(column: 4, found: "'x'", expected: "'true'"))
    #expect(
      parseError("[nul]") == .unexpectedCharacter(column: 5, found: "']'", expected: "'null'"))
    #expect(
      parseError("falsy") == .unexpectedCharacter(column: 5, found: "'y'", expected: "'false'"))
    #expect(
      parseError("True") == .unexpectedCharacter(column: 1, found: "'T'", expected: "a value"))
    #expect(parseError("truex") == .trailingCharacters(column: 5))
  }

  @Test func trailingCommasAreRejected() {
    #expect(
      parseError("[1,]")
        == .unexpectedCharacter(column: 4, found: "']'", expected: "a value after ','"))
    #expect(
      parseError(#"{"a":1,}"#)
        == .unexpectedCharacter(column: 8, found: "'}'", expected: "a string key after ','"))
  }

  @Test func commentsAreRejected() {
    #expect(
      parseError("// c\n1") == .unexpectedCharacter(column: 1, found: "'/'", expected: "a value"))
    #expect(
      parseError("[1 /* c */]")
        == .unexpectedCharacter(column: 4, found: "'/'", expected: "',' or ']' after array element")
    )
  }

  @Test func objectSyntaxErrorsNameWhatWasExpected() {
    #expect(
      parseError("{a:1}")
        == .unexpectedCharacter(column: 2, found: "'a'", expected: "a string key or '}'"))
    #expect(
      parseError(#"{"a" 1}"#)
        == .unexpectedCharacter(column: 6, found: "'1'", expected: "':' after object key"))
    #expect(
      parseError(#"{"a":1 "b":2}"#)
        == .unexpectedCharacter(
          column: 8, found: "'\"'", expected: "',' or '}' after object member"))
    #expect(
      parseError(#"{"a":}"#)
        == .unexpectedCharacter(column: 6, found: "'}'", expected: "a value after ':'"))
    #expect(
      parseError("[1 2]")
        == .unexpectedCharacter(column: 4, found: "'2'", expected: "',' or ']' after array element")
    )
    #expect(parseError("]") == .unexpectedCharacter(column: 1, found: "']'", expected: "a value"))
  }

  @Test func duplicateKeysAreRejectedAtTheirSecondOccurrence() {
    #expect(parseError(#"{"a":1,"a":2}"#) == .duplicateKey(column: 8, key: "a"))
    #expect(
      parseError(#"{"b":1,"a":{"x":[1]},"c":3,"a":4}"#) == .duplicateKey(column: 28, key: "a"))
    #expect(parseError(#"[{"k":1},{"z":1, "k":2,"z":3}]"#) == .duplicateKey(column: 24, key: "z"))
    #expect(parseError(#"{"\u0061":1,"a":2}"#) == .duplicateKey(column: 13, key: "a"))
  }

  @Test func trailingCharactersAreRejected() {
    #expect(parseError("1 2") == .trailingCharacters(column: 3))
    #expect(parseError("{} x") == .trailingCharacters(column: 4))
    #expect(parseError("[]]") == .trailingCharacters(column: 3))
  }

  // MARK: - Nesting

  @Test func nestingUpToTheLimitParses() throws {
    let depth = JSONParser.maximumDepth
    let arrays = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    var value = try JSONValue(parsing: arrays)
    var levels = 1
    while case .array(let elements) = value, let first = elements.first {
      value = first
      levels += 1
    }
    #expect(levels == depth)
    let objects =
      String(repeating: #"{"a":"#, count: depth - 1) + "{}"
      + String(repeating: "}", count: depth - 1)
    #expect(try JSONValue(parsing: objects).serializedString == objects)
  }

  @Test func nestingBeyondTheLimitIsTooDeep() {
    let limit = JSONParser.maximumDepth
    #expect(
      parseError(String(repeating: "[", count: limit + 1))
        == .tooDeep(column: limit + 1, limit: limit))
    #expect(
      parseError(String(repeating: "[", count: limit) + "{}" + String(repeating: "]", count: limit))
        == .tooDeep(column: limit + 1, limit: limit))
    let objects = String(repeating: #"{"a":"#, count: limit + 1)
    #expect(parseError(objects) == .tooDeep(column: 5 * limit + 1, limit: limit))
  }

  @Test func tenThousandOpeningBracketsAreTooDeepNotACrash() {
    #expect(parseError(String(repeating: "[", count: 10_000)) == .tooDeep(column: 513, limit: 512))
    #expect(
      parseError(String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000))
        == .tooDeep(column: 513, limit: 512))
  }

  // MARK: - Randomized

  @Test func randomValuesRoundTripThroughSerialization() throws {
    var generator = SeededGenerator(seed: 0x5EED)
    for _ in 0..<500 {
      let value = JSONValue.random(using: &generator, depth: 0)
      let serialized = value.serializedString
      let parsed = try JSONValue(parsing: serialized)
      #expect(parsed == value, "\(serialized)")
      #expect(parsed.serializedString == serialized)
      #expect(parsed.canonicalHash == value.canonicalHash)
    }
  }

  @Test func randomBytesNeverCrashTheParser() {
    var generator = SeededGenerator(seed: 7)
    let alphabet =
      Array(#"{}[],:"\ -+.eE0123456789tfnrulsaéu"#.utf8) + [0x00, 0x0A, 0x80, 0xC3, 0xFF]
    for _ in 0..<3_000 {
      let count = Int(generator.next() % 40)
      let bytes = (0..<count).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
      _ = try? JSONValue(parsing: bytes)
    }
    var mutated = Array(#"{"a":[1,2.5e3,"x\u00e9",{"b":null}],"c":true}"#.utf8)
    for _ in 0..<3_000 {
      let index = Int(generator.next() % UInt64(mutated.count))
      mutated[index] = alphabet[Int(generator.next() % UInt64(alphabet.count))]
      _ = try? JSONValue(parsing: mutated)
    }
  }
}

/// SplitMix64: a tiny deterministic generator, so randomized tests repeat exactly.
struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

extension JSONValue {
  /// A random value, nested at most a few levels below `depth`.
  static func random(using generator: inout SeededGenerator, depth: Int) -> JSONValue {
    let kinds = depth > 4 ? 7 : 9
    switch generator.next() % UInt64(kinds) {
    case 0: return .null
    case 1: return .bool(generator.next() % 2 == 0)
    case 2: return .int(Int64(bitPattern: generator.next()) >> (generator.next() % 64))
    case 3: return .uint(UInt64(Int64.max) + 1 + generator.next() % UInt64(Int64.max))
    case 4:
      let double = Double(bitPattern: generator.next())
      return .double(double.isFinite ? double : Double(Int64(bitPattern: generator.next())) / 1e6)
    case 5: return .double(Double(Int64(bitPattern: generator.next()) % 1_000_000) / 1_000)
    case 6: return .string(randomString(using: &generator))
    case 7:
      return .array(
        (0..<generator.next() % 5).map { _ in random(using: &generator, depth: depth + 1) })
    default:
      return .object(
        JSONObject(
          (0..<generator.next() % 5).map { _ in
            (randomString(using: &generator), random(using: &generator, depth: depth + 1))
          }))
    }
  }

  private static func randomString(using generator: inout SeededGenerator) -> String {
    let pieces: [String] = [
      "a", "key", "Z", "\"", "\\", "/", "\n", "\u{0}", "\u{1F}", "\u{7F}", "é", "e\u{301}", "中",
      "😀",
      "\u{FFFF}", "\u{10FFFF}", " ", "setLoading(true)",
    ]
    return (0..<generator.next() % 6).map { _ in
      pieces[Int(generator.next() % UInt64(pieces.count))]
    }
    .joined()
  }
}

extension String {
  /// `scalar` as JSON string content: `\uXXXX` escapes (with surrogate pairs) for every scalar
  /// but letters.
  fileprivate init(format4 scalar: Unicode.Scalar) {
    func hex(_ unit: UInt32) -> String {
      let digits = String(unit, radix: 16)
      return "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
    }
    if scalar.properties.isAlphabetic && scalar.isASCII {
      self = String(scalar)
    } else if scalar.value > 0xFFFF {
      let value = scalar.value - 0x1_0000
      self = hex(0xD800 + (value >> 10)) + hex(0xDC00 + (value & 0x3FF))
    } else {
      self = hex(scalar.value)
    }
  }
}

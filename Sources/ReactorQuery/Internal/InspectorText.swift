/// Text as the inspector's filter compares it (inspector.js `filtered`): the needle trimmed
/// and both sides lowercased by JavaScript's `toLowerCase()` — Unicode's full lowercase
/// mapping with its one context rule, a capital sigma ending a word becoming `ς` — and the
/// haystack without the isolates (U+2068, U+2069) the page wraps names in.
enum InspectorText {
  /// The filter's text as the page takes it: `value.trim().toLowerCase()`.
  static func needle(_ text: String) -> [UInt8] {
    Array(lowercased(String(trimmed(text))).utf8)
  }

  /// Whether `haystack` (UTF-8) holds `needle` (from ``needle(_:)``) in any case.
  ///
  /// ASCII text is compared byte by byte; text with other characters is lowercased first,
  /// since one of them may lowercase to ASCII (the Kelvin sign to `k`) or to several
  /// characters (`İ` to `i̇`).
  static func contains(_ haystack: ArraySlice<UInt8>, _ needle: [UInt8]) -> Bool {
    guard !needle.isEmpty else { return true }
    if haystack.contains(where: { $0 >= 0x80 }) {
      var text = String(decoding: haystack, as: UTF8.self)
      text.unicodeScalars.removeAll { $0 == "\u{2068}" || $0 == "\u{2069}" }
      return asciiContains(ArraySlice(lowercased(text).utf8), needle)
    }
    return asciiContains(haystack, needle)
  }

  /// JavaScript's `toLowerCase()`: each scalar's full lowercase mapping (as Swift's
  /// `lowercased()`), and `Σ` as `ς` where it ends a word (Unicode's Final_Sigma: after a
  /// cased letter, and not before one, case-ignorable characters between).
  static func lowercased(_ text: String) -> String {
    let scalars = Array(text.unicodeScalars)
    guard scalars.contains("\u{03A3}") else { return text.lowercased() }
    var result = String.UnicodeScalarView()
    for (position, scalar) in scalars.enumerated() {
      if scalar == "\u{03A3}", isFinalSigma(at: position, in: scalars) {
        result.append("\u{03C2}")
      } else {
        result.append(contentsOf: scalar.properties.lowercaseMapping.unicodeScalars)
      }
    }
    return String(result)
  }

  /// Unicode's Final_Sigma condition for the scalar at `position`.
  private static func isFinalSigma(at position: Int, in scalars: [Unicode.Scalar]) -> Bool {
    var before = position - 1
    while before >= 0, scalars[before].properties.isCaseIgnorable { before -= 1 }
    guard before >= 0, scalars[before].properties.isCased else { return false }
    var after = position + 1
    while after < scalars.count, scalars[after].properties.isCaseIgnorable { after += 1 }
    return after == scalars.count || !scalars[after].properties.isCased
  }

  /// JavaScript's `trim()`: white space, line terminators and U+FEFF off both ends.
  private static func trimmed(_ text: String) -> Substring {
    func isSpace(_ character: Character) -> Bool {
      character.isWhitespace || character == "\u{FEFF}"
    }
    let start = text.drop(while: isSpace)
    var end = start.endIndex
    while end > start.startIndex, isSpace(start[start.index(before: end)]) {
      end = start.index(before: end)
    }
    return start[..<end]
  }

  /// Whether `haystack` holds `needle`, ASCII capitals in `haystack` taken as small letters.
  private static func asciiContains(_ haystack: ArraySlice<UInt8>, _ needle: [UInt8]) -> Bool {
    guard haystack.count >= needle.count else { return false }
    @inline(__always) func lower(_ byte: UInt8) -> UInt8 {
      byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }
    let first = needle[0]
    var start = haystack.startIndex
    while start <= haystack.endIndex - needle.count {
      if lower(haystack[start]) == first {
        var matches = true
        for offset in 1..<needle.count where lower(haystack[start + offset]) != needle[offset] {
          matches = false
          break
        }
        if matches { return true }
      }
      start += 1
    }
    return false
  }
}

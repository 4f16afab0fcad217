/// A trace's label (a value's Swift description) as people read it: without the module
/// prefixes Swift's descriptions qualify every type with.
///
/// The one rule every view that shows labels follows: the diagrams' edges and boxes, the
/// sequence and timeline views, the inspector's event list. Outside quoted strings, a dotted
/// name of types loses its first part (`MyApp.Item(` → `Item(`, `MyApp.Kind.small` →
/// `Kind.small`); a stream's `ItemStore.events` (a lowercase name after the dot), a number
/// (`1.5`) and the text of a string (`"MyApp.Item"`) stay as they are. (A reactor's type, a
/// name alone, is named by its last part: ``ReactorIntroduction/shortTypeName(_:)``.)
///
/// ```swift
/// LabelText.withoutModules(#"setTask(MyApp.Item(id: 2, title: "A.B"))"#)
/// // #"setTask(Item(id: 2, title: "A.B"))"#
/// ```
public enum LabelText {
  /// `label` with the first part of each dotted name of types (a module) dropped outside
  /// quoted strings; a label without a dot is returned as it is, without copying.
  public static func withoutModules(_ label: String) -> String {
    // Only a dot starts what this drops.
    guard label.utf8.contains(UInt8(ascii: ".")) else { return label }
    var result = ""
    result.reserveCapacity(label.utf8.count)
    var plain = ""
    var rest = Substring(label)
    while let character = rest.first {
      rest = rest.dropFirst()
      if character == "\"" {
        result += withoutModules(inPlainText: plain)
        plain = ""
        result += "\"" + quotedRest(of: &rest)
      } else {
        plain.append(character)
      }
    }
    return result + withoutModules(inPlainText: plain)
  }

  /// The rest of a quoted string whose opening quote was just read from `characters`.
  ///
  /// It runs up to and with its closing quote (absent when the label ends first, as one a
  /// trace cut off does), escaped quotes included; what it returns is taken from
  /// `characters`.
  public static func quotedRest(of characters: inout Substring) -> String {
    var string = ""
    var isEscaped = false
    while let next = characters.first {
      characters = characters.dropFirst()
      string.append(next)
      if isEscaped {
        isEscaped = false
      } else if next == "\\" {
        isEscaped = true
      } else if next == "\"" {
        break
      }
    }
    return string
  }

  /// `text`, which holds no quote, with the first part of each dotted name of types dropped.
  private static func withoutModules(inPlainText text: String) -> String {
    guard text.utf8.contains(UInt8(ascii: ".")) else { return text }
    var result = ""
    var word = ""
    var previous: Character?
    var characters = Array(text)
    characters.append(" ")
    var index = 0
    while index < characters.count {
      let character = characters[index]
      if isNameCharacter(character) {
        word.append(character)
      } else {
        // A name that starts a dotted chain of type names (`MyApp.Item`), not a number, not
        // after a dot, nor a stream's `ItemStore.events`.
        if character == ".", let first = word.first, first.isLetter || first == "_",
          previous != ".", index + 1 < characters.count, characters[index + 1].isUppercase
        {
          word = ""
          previous = "."
          index += 1
          continue
        }
        result += word
        word = ""
        if index < characters.count - 1 { result.append(character) }
        previous = character
      }
      index += 1
    }
    return result
  }

  private static func isNameCharacter(_ character: Character) -> Bool {
    character.isLetter || character.isNumber || character == "_"
  }
}

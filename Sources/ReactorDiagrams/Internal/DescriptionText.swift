import ReactorStateMachines
import ReactorTracing

/// A value's Swift description (a trace's label: `setItems([MyApp.Item(id: 1, …)])`) written
/// short for an edge: module prefixes dropped and lists cut by meaning, as ``ValueText``
/// cuts JSON.
///
/// A label is read as text, quoted strings and bracketed lists (`(…)` and `[…]`, their
/// elements split at top-level commas). Outside strings, module prefixes go by the rule every
/// view shares, ``LabelText/withoutModules(_:)`` (`MyApp.Item(` → `Item(`); a stream's
/// `ItemStore.events` stays. A list shows the elements that fit and counts the
/// rest (`[Item(id: 1, … 2 more), … 4 more]`); one a trace cut off (its labels end in `…`
/// after 200 characters) ends in `…`. Text that cannot be read so is cut at a token.
enum DescriptionText {
  /// One piece of a description.
  private indirect enum Piece {
    case text(String)
    /// A quoted string, with its quotes (the closing one absent when the label was cut).
    case string(String)
    /// A bracketed list: its opening and closing characters, its elements, and whether the
    /// label was cut before it closed.
    case list(open: Character, close: Character, elements: [[Piece]], isCut: Bool)

    var isList: Bool {
      if case .list = self { return true }
      return false
    }
  }

  /// How many characters of a label a box of two lines at 9 points holds (a timeline's mark,
  /// a sequence diagram's message): the widest box, 176 points, takes about 32 a line.
  static let boxBudget = 60

  /// How many characters of a label a Mermaid message shows on its one line.
  static let lineBudget = 80

  /// `description` short enough for a box of two lines: ``short(_:budget:)`` with
  /// ``boxBudget``.
  static func boxed(_ description: String) -> String {
    short(description, budget: boxBudget)
  }

  /// `description` in about `budget` characters (a list's first element, when it does not
  /// fit, is named folded a little over it: `[Item(…), … 2 more]`).
  static func short(_ description: String, budget: Int) -> String {
    let line = description.singleLine
    // Most labels (`increase`, `setLoading(true)`) are already what this would make of them:
    // short, with no string, no dotted name, no list of several elements and no list left
    // open. Checked on bytes, which keeps a timeline of a million events from spending a
    // tenth of its time here.
    if line.utf8.count <= budget, isPlain(line) { return line }
    return parsed(line, budget: budget)
  }

  /// `line` read into its pieces and written back in about `budget` characters: what
  /// ``short(_:budget:)`` does to a label that is not plain.
  static func parsed(_ line: String, budget: Int) -> String {
    guard let pieces = parse(line) else { return line.cutAtToken(to: budget) }
    return render(pieces, budget: budget)
  }

  /// Whether ``short(_:budget:)`` leaves `line` as it is whatever the budget it fits in: no
  /// quote, no dot (a module's name ends in one), no comma (a list's elements are split at
  /// one), and brackets that close in order (a list left open is one the trace cut).
  private static func isPlain(_ line: String) -> Bool {
    // The brackets open, as bits (1 for `[`), innermost lowest; deeper than 64 is not plain.
    var open: UInt64 = 0
    var depth = 0
    for byte in line.utf8 {
      switch byte {
      case UInt8(ascii: "\""), UInt8(ascii: "."), UInt8(ascii: ","):
        return false
      case UInt8(ascii: "("), UInt8(ascii: "["):
        guard depth < 64 else { return false }
        open = open << 1 | (byte == UInt8(ascii: "[") ? 1 : 0)
        depth += 1
      case UInt8(ascii: ")"), UInt8(ascii: "]"):
        guard depth > 0, open & 1 == (byte == UInt8(ascii: "]") ? 1 : 0) else { return false }
        open >>= 1
        depth -= 1
      default:
        continue
      }
    }
    return depth == 0
  }

  // MARK: - Reading

  private static func parse(_ text: String) -> [Piece]? {
    var stack: [(open: Character, elements: [[Piece]])] = []
    var top: [Piece] = []
    var characters = Substring(text)
    func append(_ piece: Piece) {
      if stack.isEmpty {
        top.append(piece)
      } else {
        stack[stack.count - 1].elements[stack[stack.count - 1].elements.count - 1].append(piece)
      }
    }
    var plain = ""
    func flush() {
      guard !plain.isEmpty else { return }
      append(.text(LabelText.withoutModules(plain)))
      plain = ""
    }
    while let character = characters.first {
      characters = characters.dropFirst()
      switch character {
      case "\"":
        flush()
        append(.string("\"" + LabelText.quotedRest(of: &characters)))
      case "(", "[":
        flush()
        stack.append((character, [[]]))
      case ",":
        guard !stack.isEmpty else {
          plain.append(character)
          continue
        }
        flush()
        stack[stack.count - 1].elements.append([])
        if characters.first == " " { characters = characters.dropFirst() }
      case ")", "]":
        flush()
        guard let open = stack.popLast(), open.open == (character == ")" ? "(" : "[") else {
          return nil
        }
        append(.list(open: open.open, close: character, elements: open.elements, isCut: false))
      default:
        plain.append(character)
      }
    }
    flush()
    // Lists still open: the label was cut inside them.
    var isInnermost = true
    while let open = stack.popLast() {
      var elements = open.elements
      // The element being written when the label was cut, and its `…`, go, and the list ends
      // in `…`; outer lists keep theirs, which shows the cut inside it.
      if isInnermost { elements.removeLast() }
      append(
        .list(
          open: open.open, close: open.open == "(" ? ")" : "]", elements: elements,
          isCut: isInnermost))
      isInnermost = false
    }
    return top
  }

  // MARK: - Writing

  private static func render(_ pieces: [Piece], budget: Int) -> String {
    var result = ""
    for piece in pieces {
      let room = budget - result.count
      // Past the budget, text and strings stop; a list folds itself to `(…)`.
      if room <= 1, !result.isEmpty, !piece.isList {
        result += "…"
        break
      }
      switch piece {
      case .text(let text):
        // Names and labels stay whole; only long free text is cut.
        result += text.count > max(room, 12) ? text.cutAtToken(to: max(room, 12)) : text
      case .string(let string):
        var inner = string.dropFirst()
        if inner.last == "\"" { inner = inner.dropLast() }
        result += ValueText.quoted(String(inner), budget: max(room, 8))
      case .list(let open, let close, let elements, let isCut):
        result += list(open: open, close: close, elements: elements, isCut: isCut, budget: room)
      }
    }
    return result
  }

  /// An element with its lists and strings folded: `Item(…)`.
  private static func folded(_ pieces: [Piece]) -> String {
    pieces.map { piece in
      switch piece {
      case .text(let text): text
      case .string: "\"…\""
      case .list(let open, let close, _, _): String(open) + "…" + String(close)
      }
    }.joined()
  }

  /// The first elements that fit in `budget`, and how many more there are; `(…)` when not
  /// even the first fits.
  private static func list(
    open: Character, close: Character, elements: [[Piece]], isCut: Bool, budget: Int
  ) -> String {
    let collapsed = String(open) + "…" + String(close)
    guard !elements.isEmpty else { return isCut ? collapsed : String(open) + String(close) }
    var shown: [String] = []
    var length = 2
    for element in elements {
      let more = elements.count - shown.count - 1
      // A list the trace cut off has more elements than it shows; how many is not known.
      let tail = isCut ? ", …".count : (more > 0 ? ", … \(more) more".count : 0)
      let room = budget - length - (shown.isEmpty ? 0 : 2) - tail
      var text = render(element, budget: room)
      if text.count > room {
        // The first element is named at least, its lists folded, a little over budget.
        guard shown.isEmpty else { break }
        if text.count > room + 16 { text = folded(element) }
        if text.count > room + 16 { break }
      }
      shown.append(text)
      length += text.count + (shown.count > 1 ? 2 : 0)
    }
    guard !shown.isEmpty else { return collapsed }
    let rest = elements.count - shown.count
    var tail = ""
    if isCut {
      tail = ", …"
    } else if rest > 0 {
      tail = ", … \(rest) more"
    }
    return String(open) + shown.joined(separator: ", ") + tail + String(close)
  }
}

import Foundation
import ReactorInspector

/// The generator of the inspector's embedded page: it reads the page's files in
/// `Sources/ReactorInspector/Page/` and writes the Swift that carries them into the binary.
///
/// `inspector.html` is the page as one edits it, with its styles and scripts as files of their
/// own (`<link rel="stylesheet" href="…">`, `<script src="…"></script>`) and an empty
/// `<script type="application/json" id="trace-data">` where the trace's data goes. The
/// generator puts each referenced file inline (the two scripts, one after the other, in one
/// `<script>` element) and cuts the page at the data element.
/// `event-slots.js`, the positions of the members of an event, is itself generated from
/// ``PageEventSlots``, the table the Swift side writes by, so both sides name them once.
enum InspectorAssets {
  /// One generated file: where it goes, relative to the repository's root, and its text.
  struct File {
    var path: String
    var text: String
  }

  /// A reason the page's files cannot be embedded.
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// The repository's root, found from this file's path.
  static let root = String(
    #filePath.dropLast("/Tests/ReactorInspectorTests/InspectorAssets.swift".count))

  /// The folder of the page's files, relative to the root.
  static let pageFolder = "Sources/ReactorInspector/Page"

  /// The element the trace's data goes into.
  static let dataElement = #"<script type="application/json" id="trace-data"></script>"#

  /// Every generated file, in the order they are generated.
  static func all() throws -> [File] {
    let slots = File(path: pageFolder + "/event-slots.js", text: eventSlotsScript())
    return [slots, try embeddedPage(eventSlots: slots.text)]
  }

  /// `event-slots.js`: one frozen object naming the position of every member of an event.
  static func eventSlotsScript() -> String {
    var lines = [
      "// Generated from PageEventSlots (Sources/ReactorInspector/Internal/PageEventSlots.swift)",
      "// by InspectorAssets (Tests/ReactorInspectorTests); do not edit. Regenerate with",
      "// REACTOR_TRACE_REGENERATE_INSPECTOR=1 swift test --filter InspectorAssetTests",
      "// An event is an array: e[Slot.seq], e[Slot.time], e[Slot.kind] (the letter), then the",
      "// members of its kind, e.g. e[Slot.mutation.label].",
      "\"use strict\";",
      "const Slot = Object.freeze({",
    ]
    for (offset, name) in PageEventSlots.common.enumerated() {
      lines.append("  \(name): \(offset),")
    }
    for kind in PageEventSlots.kinds {
      let members = kind.slots.enumerated().map { offset, name in
        "\(name): \(PageEventSlots.common.count + offset)"
      }
      lines.append("  \(kind.name): Object.freeze({ \(members.joined(separator: ", ")) }),")
    }
    lines.append("});")
    return lines.joined(separator: "\n") + "\n"
  }

  /// `InspectorPageText.swift`: the page before and after its data, as Swift raw strings.
  static func embeddedPage(eventSlots: String) throws -> File {
    var page = try read("inspector.html")
    page = try inline(
      #"<link rel="stylesheet" href="inspector.css">"#, in: page,
      with: "<style>\n" + (try read("inspector.css")) + "</style>")
    // The two scripts are one element, so that the page holds one script besides its data.
    let script = "\n" + eventSlots + (try read("inspector.js"))
    page = try inline(
      #"<script src="event-slots.js"></script>"# + "\n" + #"<script src="inspector.js"></script>"#,
      in: page, with: "<script>" + script + "</script>")
    // The browser runs that one script and no other: not one an escaping mistake let in.
    page = try inline(
      "script-src 'unsafe-inline'", in: page,
      with: "script-src 'sha256-\(SHA256Digest.base64(Array(script.utf8)))'")
    let parts = page.components(separatedBy: dataElement)
    guard parts.count == 2 else {
      throw Failure(description: "inspector.html must hold \(dataElement) exactly once")
    }
    let opening = String(dataElement.prefix { $0 != ">" }) + ">"
    let text = """
      // Generated from Sources/ReactorInspector/Page by InspectorAssets
      // (Tests/ReactorInspectorTests); do not edit. Regenerate with
      // REACTOR_TRACE_REGENERATE_INSPECTOR=1 swift test --filter InspectorAssetTests

      /// The inspector's page with its styles and scripts inline, cut where the data goes.
      enum InspectorPageText {
        /// The page up to and including the opening tag of the data element.
        static let beforeData = \(rawLiteral(parts[0] + opening))

        /// The page from the closing tag of the data element on.
        static let afterData = \(rawLiteral("</script>" + parts[1]))
      }

      """
    return File(path: "Sources/ReactorInspector/Internal/InspectorPageText.swift", text: text)
  }

  /// The text of one of the page's files.
  private static func read(_ name: String) throws -> String {
    let path = root + "/" + pageFolder + "/" + name
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
      throw Failure(description: "cannot read \(path)")
    }
    return text
  }

  /// `page` with its one `reference` replaced by `text`.
  private static func inline(_ reference: String, in page: String, with text: String) throws
    -> String
  {
    let parts = page.components(separatedBy: reference)
    guard parts.count == 2 else {
      throw Failure(description: "inspector.html must hold \(reference) exactly once")
    }
    return parts[0] + text + parts[1]
  }

  /// A multi-line Swift raw string literal whose value is `text`, indented by 4 spaces, with
  /// as many `#` as it takes for no line of `text` to end it or escape from it.
  static func rawLiteral(_ text: String) -> String {
    var hashes = "#"
    while text.contains("\"\"\"" + hashes) || text.contains("\\" + hashes) { hashes += "#" }
    // The literal's last line break is not part of its value: one is added for it.
    let lines = (text + "\n").split(separator: "\n", omittingEmptySubsequences: false)
      .dropLast()
      .map { $0.isEmpty ? "" : "    " + $0 }
    return hashes + "\"\"\"\n" + lines.joined(separator: "\n") + "\n    \"\"\"" + hashes
  }
}

import Foundation
import ReactorInspector

/// The inspector's page files as the tests read them from `Sources/ReactorInspector/Page/`,
/// and the generator of the one that is made from Swift: `event-slots.js`, the positions of
/// the members of an event, generated from ``PageEventSlots``, the table the Swift side writes
/// by, so both sides name them once.
enum InspectorAssets {
  /// A reason a page file cannot be read.
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// The repository's root, found from this file's path.
  static let root = String(
    #filePath.dropLast("/Tests/ReactorInspectorTests/InspectorAssets.swift".count))

  /// The folder of the page's files, relative to the root.
  static let pageFolder = "Sources/ReactorInspector/Page"

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

  /// The bytes of one of the page's files.
  static func read(_ name: String) throws -> [UInt8] {
    let path = root + "/" + pageFolder + "/" + name
    guard let data = FileManager.default.contents(atPath: path) else {
      throw Failure(description: "cannot read \(path)")
    }
    return Array(data)
  }
}

import Foundation
import ReactorCore
import ReactorExamples
import Testing

// The README's snippet "A cell that only shows its item", compiled as it is written there
// (between the markers, byte for byte; the test below checks that the README still holds it).

// README snippet start
final class ItemCellReactor: Reactor {
  typealias Action = NoAction
  typealias State = ListItem  // named: `Runtime` needs it before `initialState` is read
  let initialState: ListItem
  let runtime = Runtime()
  init(item: ListItem) { initialState = item }
}
// README snippet end

/// The README's cell snippet compiles with the toolchain and is the reactor it says it is.
@Suite struct ReadmeCellSnippet {
  /// The repository's root, found from this file's path.
  private static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

  @Test func theReadmeHoldsTheSnippetThisFileCompiles() throws {
    let readme = try String(contentsOfFile: Self.root + "/README.md", encoding: .utf8)
    let source = try String(contentsOfFile: #filePath, encoding: .utf8)
    let start = try #require(source.range(of: "// README snippet start\n"))
    let end = try #require(source.range(of: "// README snippet end\n"))
    let snippet = source[start.upperBound..<end.lowerBound]
    #expect(
      readme.contains(
        "A cell that only shows its item needs nothing but its state:\n\n```swift\n"
          + snippet + "```\n"))
  }

  @MainActor @Test func theCellIsItsItemAndKeepsIt() {
    let item = ListItem(id: 7, title: "Milk", isChecked: false)
    let cell = ItemCellReactor(item: item)
    #expect(cell.currentState == item)
  }
}

import ReactorTracing
import Testing

@Suite("State paths: one grammar, one meaning")
struct StatePathTests {
  private let state: JSONValue

  init() throws {
    state = try JSONValue(
      parsing: #"""
        {"isLoading":false,"tasks":[{"id":1,"title":"Buy milk"},{"id":2,"title":"Call"}],
         "byName":{"0":"zero"},"alert":{"value":"Saved","valueUpdatedCount":3},"empty":[]}
        """#)
  }

  @Test(arguments: [
    ("tasks.0.title", ["tasks", "0", "title"]), ("tasks[0].title", ["tasks", "0", "title"]),
    ("[1]", ["1"]), ("tasks[1][0]", ["tasks", "1", "0"]), ("  user.name\n", ["user", "name"]),
    ("a[x].b", ["a[x]", "b"]), ("isLoading", ["isLoading"]),
  ])
  func textsReadAsTheirComponents(_ text: String, _ components: [String]) throws {
    let path = try StatePath(parsing: text)
    #expect(path.components == components)
    #expect(try StatePath(parsing: path.description) == path)
  }

  @Test(arguments: ["", "  ", "tasks..title", "tasks.", ".tasks", "a.[0]"])
  func anEmptyPathOrFieldNameIsRefusedWithTheText(_ text: String) {
    let error = #expect(throws: StatePathError.self) { try StatePath(parsing: text) }
    #expect(error?.description.hasPrefix("'\(text)' is not a state path: ") == true)
    #expect(error?.description.contains("tasks.0.title") == true)
  }

  @Test func digitsIndexAnArrayAndNameAnObjectsKey() {
    #expect(StatePath("tasks.1.title").value(in: state) == .string("Call"))
    #expect(StatePath("byName.0").value(in: state) == .string("zero"))
    #expect(StatePath("tasks.2.title").value(in: state) == nil)
    #expect(StatePath("tasks.01.title").value(in: state) == nil)
    #expect(StatePath("tasks.first").value(in: state) == nil)
    #expect(StatePath("isLoading.x").value(in: state) == nil)
    #expect(StatePath.root.value(in: state) == state)
  }

  @Test func leavesAreScalarsAndEmptyContainersByPath() {
    let leaves = StatePath.leaves(of: state)
    #expect(
      leaves.map(\.path.description) == [
        "alert.value", "alert.valueUpdatedCount", "byName.0", "empty", "isLoading", "tasks.0.id",
        "tasks.0.title", "tasks.1.id", "tasks.1.title",
      ])
    for leaf in leaves { #expect(leaf.path.value(in: state) == leaf.value) }
    #expect(StatePath.leaves(of: .int(3)).map(\.path) == [.root])
  }

  @Test func aPathContainsThePathsUnderIt() {
    #expect(StatePath("tasks").contains("tasks.0.title"))
    #expect(StatePath("tasks.0").contains("tasks.0"))
    #expect(!StatePath("tasks.0").contains("tasks.1.title"))
    #expect(!StatePath("tasks.0.title").contains("tasks"))
  }

  @Test func aDiffOperationOverlapsThePathsItCanChange() {
    let path: StatePath = "tasks.1.title"
    #expect(path.overlaps([.key("tasks")]))
    #expect(path.overlaps([.key("tasks"), .index(1), .key("title")]))
    #expect(path.overlaps([.key("tasks"), .index(1), .key("title"), .key("deeper")]))
    #expect(!path.overlaps([.key("tasks"), .index(0)]))
    #expect(!path.overlaps([.key("isLoading")]))
    #expect(StatePath("byName.0").overlaps([.key("byName"), .key("0")]))
  }

  @Test func aSchemaDescribesFieldsThroughArraysOptionalsAndWrappers() {
    let task = TypeSchema.structure(
      name: "Task",
      fields: [.init(name: "title", schema: .primitive("String"))], isPartial: false)
    let schema = TypeSchema.structure(
      name: "State",
      fields: [
        .init(name: "tasks", schema: .array(task)),
        .init(name: "selected", schema: .optional(task)),
      ], isPartial: false)
    #expect(StatePath("tasks.0.title").isDescribed(by: schema))
    #expect(StatePath("tasks.12").isDescribed(by: schema))
    #expect(StatePath("selected.title").isDescribed(by: schema))
    #expect(!StatePath("tasks.title").isDescribed(by: schema))
    #expect(!StatePath("tasks.0.name").isDescribed(by: schema))
    #expect(
      StatePath.fieldPaths(of: schema).map(\.description) == [
        "tasks", "tasks.0", "tasks.0.title", "selected", "selected.title",
      ])
  }
}

@Suite("The pulse shape, known in one place")
struct StatePulseTests {
  @Test func aPulseIsACountWithAtMostAValue() throws {
    let pulse = try JSONValue(parsing: #"{"value":"Saved","valueUpdatedCount":3}"#)
    let nilPulse = try JSONValue(parsing: #"{"valueUpdatedCount":2}"#)
    #expect(StatePulse.value(of: pulse) == .string("Saved"))
    #expect(StatePulse.count(of: pulse) == .int(3))
    #expect(StatePulse.value(of: nilPulse) == .null)
    for notPulse in [#"{"value":1}"#, #"{"value":1,"valueUpdatedCount":1,"x":2}"#, "3"] {
      #expect(StatePulse.value(of: try JSONValue(parsing: notPulse)) == nil, "\(notPulse)")
    }
  }

  @Test func withoutCountsEveryPulseShowsItsValue() throws {
    let state = try JSONValue(
      parsing: #"{"a":{"value":{"value":1,"valueUpdatedCount":1},"valueUpdatedCount":2},"#
        + #""b":[{"valueUpdatedCount":0}],"c":{"value":1}}"#)
    #expect(
      StatePulse.withoutCounts(state)
        == (try JSONValue(parsing: #"{"a":1,"b":[null],"c":{"value":1}}"#)))
  }
}

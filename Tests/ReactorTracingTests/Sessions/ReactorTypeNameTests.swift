import ReactorTracing
import Testing

/// A reactor's type as the views name it: without its module.
///
/// The inspector's script names types by the same rule; its browser test
/// (Tests/Browser/inspector_test.py, `ShortTypeTests`) checks it against this table.
@Suite struct ReactorTypeName {
  @Test(arguments: [
    ("ReactorExamples.TaskCellReactor", "TaskCellReactor"),
    ("App.Screen.Reactor", "Reactor"),
    ("App.Box<App.Item>", "Box<App.Item>"),
    ("App.Pair<App.Item, Other.Box<Other.Item>>", "Pair<App.Item, Other.Box<Other.Item>>"),
    ("<App.Item>", "<App.Item>"),
    ("Counter", "Counter"),
    ("Broken.", "Broken."),
    ("", ""),
  ])
  func aTypeIsNamedWithoutItsModule(_ type: String, _ short: String) {
    #expect(ReactorIntroduction.shortTypeName(type) == short)
  }
}

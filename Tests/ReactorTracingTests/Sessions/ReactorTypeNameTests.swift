import ReactorTracing
import Testing

/// A reactor's type as the views name it: without its module.
@Suite struct ReactorTypeName {
  @Test(arguments: [
    ("ReactorExamples.TaskCellReactor", "TaskCellReactor"),
    ("App.Screen.Reactor", "Reactor"),
    ("App.Box<App.Item>", "Box<App.Item>"),
    ("Counter", "Counter"),
    ("Broken.", "Broken."),
    ("", ""),
  ])
  func aTypeIsNamedWithoutItsModule(_ type: String, _ short: String) {
    #expect(ReactorIntroduction.shortTypeName(type) == short)
  }
}

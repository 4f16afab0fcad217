import ReactorTracing
import Testing

/// The one rule every view drops module prefixes from labels by.
@Suite("Labels without module prefixes")
struct LabelTextTests {
  @Test func aTypesModuleIsDroppedAndItsNestedNamesKept() {
    #expect(
      LabelText.withoutModules(#"setTask(ReactorExamples.TaskItem(id: 2, title: "Buy milk"))"#)
        == #"setTask(TaskItem(id: 2, title: "Buy milk"))"#)
    #expect(LabelText.withoutModules("select(MyApp.Kind.small)") == "select(Kind.small)")
    #expect(
      LabelText.withoutModules("ReactorExamples.TaskAppListReactor.Action.refresh")
        == "TaskAppListReactor.Action.refresh")
    #expect(
      LabelText.withoutModules("setItems([MyApp.Item(id: 1), MyApp.Item(id: 2)])")
        == "setItems([Item(id: 1), Item(id: 2)])")
  }

  @Test func streamsNumbersAndStringsStayAsTheyAre() {
    #expect(LabelText.withoutModules("stream ItemStore.events") == "stream ItemStore.events")
    #expect(LabelText.withoutModules("open(id: 2.5)") == "open(id: 2.5)")
    #expect(
      LabelText.withoutModules(#"rename("MyApp.Item(", MyApp.Kind.big)"#)
        == #"rename("MyApp.Item(", Kind.big)"#)
    // An escaped quote does not end the string; a string the trace cut off runs to the end.
    #expect(
      LabelText.withoutModules(#"say("a \"B.C\" d", X.Y)"#) == #"say("a \"B.C\" d", Y)"#)
    #expect(LabelText.withoutModules(#"say("B.C…"#) == #"say("B.C…"#)
  }

  @Test func aLabelWithoutADotIsReturnedAsItIs() {
    for label in ["increase", "setLoading(true)", "", "\u{202E}evil</script>"] {
      #expect(LabelText.withoutModules(label) == label)
    }
    // Hostile text around a module prefix keeps every character but the module's.
    #expect(
      LabelText.withoutModules("\u{202E}M.Evil(\"<b>\")\u{0}") == "\u{202E}Evil(\"<b>\")\u{0}")
  }
}

import Testing

@testable import ReactorDiagrams

/// Edge labels made from Swift descriptions: module prefixes dropped, lists cut by meaning.
@Suite struct DescriptionTextTests {
  @Test func shortLabelsStayAsTheyAre() {
    #expect(DescriptionText.short("setLoading(true)", budget: 36) == "setLoading(true)")
    #expect(DescriptionText.short("setFilter(nil)", budget: 36) == "setFilter(nil)")
    #expect(DescriptionText.short("increase", budget: 36) == "increase")
  }

  @Test func modulePrefixesAreDropped() {
    #expect(
      DescriptionText.short("select(MyApp.Kind.small)", budget: 36) == "select(Kind.small)")
    #expect(
      DescriptionText.short(#"open(MyApp.Route.detail(id: 2.5))"#, budget: 36)
        == "open(Route.detail(id: 2.5))")
    #expect(
      DescriptionText.short("stream ItemStore.events", budget: 36) == "stream ItemStore.events")
    // Not inside strings.
    #expect(
      DescriptionText.short(#"rename("MyApp.Item(")"#, budget: 36) == #"rename("MyApp.Item(")"#)
  }

  @Test func listsShowWholeElementsAndCountTheRest() {
    let label =
      #"setItems([MyApp.Item(id: 1, title: "One"), MyApp.Item(id: 2, title: "Two"), "#
      + #"MyApp.Item(id: 3, title: "Three")])"#
    #expect(
      DescriptionText.short(label, budget: 36) == #"setItems([Item(id: 1, … 1 more), … 2 more])"#)
    #expect(
      DescriptionText.short(label, budget: 80)
        == #"setItems([Item(id: 1, title: "One"), Item(id: 2, title: "Two"), … 1 more])"#)
  }

  @Test func aLabelTheTraceCutOffEndsItsListsInAnEllipsis() {
    // Traces cut labels at 200 characters, with `…`.
    let label =
      #"setSections([ReactorExamples.ItemSection(header: "Today", items: "#
      + #"[ReactorExamples.ListItem(id: 1, title: "Port the reactors", isChecked: false)]), "#
      + #"ReactorExamples.ItemSection(header: "Later", items: …"#
    #expect(
      DescriptionText.short(label, budget: 36) == "setSections([ItemSection(…), … 1 more])")
    #expect(
      DescriptionText.short(label, budget: 100)
        == #"setSections([ItemSection(header: "Today", items: [ListItem(id: 1, … 2 more)]), "#
        + "… 1 more])")
  }

  @Test func unbalancedTextIsCutAtAToken() {
    #expect(
      DescriptionText.short("a) b c d e f g h i j k l m n o p q r s t u v w", budget: 20)
        == "a) b c d e f g h i…")
  }

  @Test(arguments: [
    "increase", "setLoading(true)", "setValue(-3)", "toggle", "()", "[]", "load(page(2))",
    "smile :(", "a)", "x(y", "([)]", "[(])", "café(ü)", "row[3]", "select(nil)", "",
  ])
  func aPlainLabelComesOutAsReadingItWholeWouldMakeIt(label: String) {
    // The plain-label shortcut gives what the full reading gives, at every budget.
    for budget in [1, 4, 8, 12, 20, 60, 80] {
      #expect(
        DescriptionText.short(label, budget: budget)
          == DescriptionText.parsed(label, budget: budget))
    }
  }
}

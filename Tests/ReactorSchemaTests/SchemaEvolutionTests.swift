import ReactorJSON
import ReactorSchema
import Testing

@Suite struct SchemaEvolutionTests {
  private func evolution<OldAction, NewAction, OldState, NewState>(
    action old: OldAction.Type, _ new: NewAction.Type, state oldState: OldState.Type,
    _ newState: NewState.Type
  ) -> SchemaEvolution {
    SchemaEvolution(
      recorded: TraceSchema(action: old, mutation: Never.self, state: oldState),
      current: TraceSchema(action: new, mutation: Never.self, state: newState))
  }

  @Test func anAddedCaseBreaksNothingAndConcernsNoRecordedValue() {
    let evolution = evolution(
      action: Counter.Action.self, ActionWithReset.self, state: Counter.State.self,
      Counter.State.self)
    #expect(evolution.breaking(in: [.action, .mutation, .state]) == [])
    #expect(
      evolution.changes(affecting: ["increase": [:]] as JSONValue, of: .action).changes.isEmpty)
    #expect(evolution.addedCases(of: .action) == ["reset"])
  }

  @Test func aRemovedCaseConcernsOnlyTheValuesThatUseIt() {
    let evolution = evolution(
      action: Counter.Action.self, ActionWithoutDecrease.self, state: Counter.State.self,
      Counter.State.self)
    #expect(evolution.breaking(in: [.action]) == [])
    #expect(evolution.changes(affecting: ["increase": [:]] as JSONValue, of: .action).changes == [])
    let used = evolution.changes(affecting: ["decrease": [:]] as JSONValue, of: .action)
    #expect(used.changes.map(\.description) == ["Action: case 'decrease' was removed"])
    #expect(!used.mayDecode)
  }

  @Test func aPayloadThatOnlyGainedFieldsMayStillDecode() {
    let evolution = evolution(
      action: Counter.Action.self, ActionWithEmail.self, state: Counter.State.self,
      Counter.State.self)
    let value = ["setUser": ["name": "Ada", "age": 36]] as JSONValue
    let found = evolution.changes(affecting: value, of: .action)
    #expect(found.changes.map(\.description) == ["Action.setUser: field 'email' was added"])
    #expect(found.mayDecode)
  }

  @Test func anAddedStateFieldIsCompatibleAndOtherStateChangesBreakEveryTrace() {
    let added = evolution(
      action: Counter.Action.self, Counter.Action.self, state: StateWithDoubleCount.self,
      StateWithNote.self)
    #expect(added.addedStateFields.map(\.description) == ["State: field 'note' was added"])
    #expect(
      added.breaking(in: [.state]).map(\.description)
        == ["State.count: type changed from Double to Int"])
    #expect(added.breaking(in: [.action, .mutation]) == [])
  }
}

/// `Counter.State` with an optional field more.
struct StateWithNote: Codable {
  var count: Int
  var isLoading: Bool
  var user: Counter.User?
  var note: String?
}

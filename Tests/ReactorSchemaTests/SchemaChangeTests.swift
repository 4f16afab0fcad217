import ReactorJSON
import ReactorSchema
import Testing

@Suite struct SchemaChangeTests {
  private func changes<Old, New>(from old: Old.Type, to new: New.Type) -> [String] {
    let recorded = TraceSchema(action: Never.self, mutation: Never.self, state: old)
    let current = TraceSchema(action: Never.self, mutation: Never.self, state: new)
    return current.changes(from: recorded).map(\.description)
  }

  private func actionChanges<Old, New>(from old: Old.Type, to new: New.Type) -> [String] {
    let recorded = TraceSchema(action: old, mutation: Never.self, state: Never.self)
    let current = TraceSchema(action: new, mutation: Never.self, state: Never.self)
    return current.changes(from: recorded).map(\.description)
  }

  @Test func sameOrRenamedTypesHaveNoChanges() {
    #expect(actionChanges(from: Counter.Action.self, to: Counter.Action.self) == [])
    #expect(actionChanges(from: Counter.Action.self, to: Renamed.Input.self) == [])
    #expect(changes(from: Counter.State.self, to: StateWithRenamedUserType.self) == [])
  }

  @Test func addedAndRemovedCasesAreReported() {
    #expect(
      actionChanges(from: Counter.Action.self, to: ActionWithReset.self)
        == ["Action: case 'reset' was added"])
    #expect(
      actionChanges(from: Counter.Action.self, to: ActionWithoutDecrease.self)
        == ["Action: case 'decrease' was removed"])
  }

  @Test func addedRemovedAndRenamedPayloadFieldsAreReported() {
    #expect(
      actionChanges(from: Counter.Action.self, to: ActionWithEmail.self)
        == ["Action.setUser: field 'email' was added"])
    #expect(
      actionChanges(from: Counter.Action.self, to: ActionWithRenamedLabel.self)
        == [
          "Action.setUser: field 'fullName' was added",
          "Action.setUser: field 'name' was removed",
        ])
  }

  @Test func typeChangesAreReportedInSwiftNotation() {
    #expect(
      changes(from: Counter.State.self, to: StateWithDoubleCount.self)
        == ["State.count: type changed from Int to Double"])
    #expect(
      changes(from: Carton<[Int]>.self, to: Carton<Set<Int>>.self)
        == ["State.content: type changed from [Int] to Set<Int>"])
    #expect(
      changes(from: Carton<[String: Int]>.self, to: Carton<[Int: Int]>.self)
        == ["State.content: type changed from [String: Int] to [Int: Int]"])
  }

  @Test func nestedChangesHaveTheirFullPath() {
    #expect(
      changes(from: Counter.State.self, to: StateWithRenamedUserField.self)
        == [
          "State.user: field 'fullName' was added",
          "State.user: field 'name' was removed",
        ])
    #expect(
      changes(
        from: Carton<[Counter.User]>.self, to: Carton<[StateWithRenamedUserField.Person]>.self)
        == [
          "State.content[]: field 'fullName' was added",
          "State.content[]: field 'name' was removed",
        ])
  }

  @Test func optionalityChangesAreReported() {
    #expect(
      changes(from: Counter.State.self, to: StateWithOptionalCount.self)
        == ["State.count: became optional"])
    #expect(
      changes(from: StateWithOptionalCount.self, to: Counter.State.self)
        == ["State.count: became non-optional"])
    #expect(
      changes(from: Carton<Int?>.self, to: Carton<String>.self)
        == ["State.content: type changed from Int? to String"])
  }

  @Test func codabilityChangesAreReported() {
    #expect(
      changes(from: Counter.State.self, to: NotCodable.self) == ["State: is no longer Codable"])
    #expect(changes(from: NotCodable.self, to: Counter.State.self) == ["State: became Codable"])
    #expect(changes(from: NotCodable.self, to: DecodableOnly.self) == ["State: became Decodable"])
  }

  @Test func rawValueChangesAreReported() {
    #expect(
      changes(from: Tab.self, to: TabWithOtherRawValue.self)
        == [#"State.home: raw value changed from "home" to "Home""#])
    #expect(
      changes(from: Tab.self, to: TabWithIntRawValue.self)
        == [
          "State: raw value type changed from String to Int",
          #"State.home: raw value changed from "home" to 0"#,
          #"State.search: raw value changed from "search" to 1"#,
          #"State.settings: raw value changed from "Settings" to 2"#,
        ])
  }

  @Test func completenessChangesAreReported() {
    #expect(
      changes(from: Carton<Int>.self, to: AlwaysFailsWithContent.self)
        == ["State: its init(from:) can now be probed only in part"])
  }

  @Test func changesInAllThreeTypesAreSortedByPath() {
    let recorded = TraceSchema(
      action: Counter.Action.self, mutation: Counter.Action.self, state: Counter.State.self)
    let current = TraceSchema(
      action: ActionWithReset.self, mutation: ActionWithEmail.self,
      state: StateWithDoubleCount.self)
    #expect(
      current.changes(from: recorded).map(\.description) == [
        "Action: case 'reset' was added",
        "Mutation.setUser: field 'email' was added",
        "State.count: type changed from Int to Double",
      ])
  }

  @Test func changesAreEmptyExactlyWhenDigestsMatch() {
    let fingerprints = [
      TypeFingerprint(of: Counter.Action.self), TypeFingerprint(of: Renamed.Input.self),
      TypeFingerprint(of: ActionWithReset.self), TypeFingerprint(of: ActionWithEmail.self),
      TypeFingerprint(of: Counter.State.self), TypeFingerprint(of: StateWithOptionalCount.self),
      TypeFingerprint(of: StateWithRenamedUserType.self), TypeFingerprint(of: Catalog.self),
      TypeFingerprint(of: Tab.self), TypeFingerprint(of: TabWithOtherRawValue.self),
      TypeFingerprint(of: Expression.self), TypeFingerprint(of: HoldsFailures.self),
      TypeFingerprint(of: Wrapped.self), TypeFingerprint(of: Carton<Int>.self),
      TypeFingerprint(of: AlwaysFailsWithContent.self),
    ]
    let never = TypeFingerprint(of: Never.self)
    for old in fingerprints {
      for new in fingerprints {
        let recorded = TraceSchema(action: never, mutation: never, state: old)
        let current = TraceSchema(action: never, mutation: never, state: new)
        let changes = current.changes(from: recorded)
        #expect(changes.isEmpty == (old.digest == new.digest), "\(old.name) → \(new.name)")
      }
    }
  }

  @Test func kindsDescribeThemselves() {
    let kinds: [(SchemaChange.Kind, String)] = [
      (.caseAdded("a"), "case 'a' was added"),
      (.caseRemoved("a"), "case 'a' was removed"),
      (.fieldAdded("f"), "field 'f' was added"),
      (.fieldRemoved("f"), "field 'f' was removed"),
      (.typeChanged(from: "Int", to: "Double"), "type changed from Int to Double"),
      (.optionalityChanged(isOptional: true), "became optional"),
      (.codabilityChanged(isCodable: false), "is no longer Codable"),
      (.decodabilityChanged(isDecodable: false), "is no longer Decodable"),
      (.rawValueTypeChanged(from: nil, to: "Int"), "raw value type changed from none to Int"),
      (.rawValueChanged(from: nil, to: "x"), #"raw value changed from unknown to "x""#),
      (.completenessChanged(isPartial: false), "its init(from:) can now be probed completely"),
    ]
    for (kind, description) in kinds {
      #expect(SchemaChange(path: "State", kind: kind).description == "State: \(description)")
    }
  }
}

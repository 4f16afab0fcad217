import ReactorJSON
import ReactorSchema
import Testing

@Suite struct TypeFingerprintTests {
  private func digest<T>(_ type: T.Type) -> TraceHash {
    TypeFingerprint(of: type).digest
  }

  @Test func identicalTypesGiveIdenticalFingerprintsAcrossCalls() {
    #expect(TypeFingerprint(of: Counter.Action.self) == TypeFingerprint(of: Counter.Action.self))
    #expect(TypeFingerprint(of: Catalog.self) == TypeFingerprint(of: Catalog.self))
    #expect(TypeFingerprint(of: Expression.self) == TypeFingerprint(of: Expression.self))
  }

  @Test func renamingATypeKeepsTheDigest() {
    let original = TypeFingerprint(of: Counter.Action.self)
    let renamed = TypeFingerprint(of: Renamed.Input.self)
    #expect(original.name != renamed.name)
    #expect(original.digest == renamed.digest)
  }

  @Test func renamingANestedTypeKeepsTheDigest() {
    #expect(digest(Counter.State.self) == digest(StateWithRenamedUserType.self))
  }

  @Test func addingOrRemovingACaseChangesTheDigest() {
    #expect(digest(Counter.Action.self) != digest(ActionWithReset.self))
    #expect(digest(Counter.Action.self) != digest(ActionWithoutDecrease.self))
  }

  @Test func addingOrRenamingAPayloadFieldChangesTheDigest() {
    #expect(digest(Counter.Action.self) != digest(ActionWithEmail.self))
    #expect(digest(Counter.Action.self) != digest(ActionWithRenamedLabel.self))
  }

  @Test func changingAFieldTypeChangesTheDigest() {
    #expect(digest(Counter.State.self) != digest(StateWithDoubleCount.self))
    #expect(digest(Carton<Int>.self) != digest(Carton<Int64>.self))
    #expect(digest(Carton<[Int]>.self) != digest(Carton<Set<Int>>.self))
  }

  @Test func makingAFieldOptionalChangesTheDigest() {
    #expect(digest(Counter.State.self) != digest(StateWithOptionalCount.self))
  }

  @Test func changingARawValueChangesTheDigest() {
    #expect(digest(Tab.self) != digest(TabWithOtherRawValue.self))
  }

  @Test func digestIsTheHashOfTheAnonymizedShape() throws {
    let fingerprint = TypeFingerprint(of: Counter.State.self)
    let shape = try #require(fingerprint.shape)
    #expect(fingerprint.digest == shape.anonymized.json.canonicalHash)
    #expect(shape.anonymized.typeName == "")
    #expect(fingerprint.digest.description.utf8.count == 16)
  }

  @Test func fingerprintsAreQuickToTake() {
    let clock = ContinuousClock()
    let elapsed = clock.measure {
      for _ in 0..<10 {
        _ = TraceSchema(action: Counter.Action.self, mutation: Payload.self, state: Catalog.self)
      }
    }
    // About 0.1 ms each in a debug build here; the bound only catches runaway probing.
    #expect(elapsed < .milliseconds(500))
  }
}

import ReactorCore
import ReactorScript
import ReactorTracing
import Testing

/// A screen whose state holds its rows as plain values, not as reactors.
@MainActor
private final class RowsScreenReactor: Reactor {
  struct Row: Codable, Sendable, Equatable { var id: Int }
  enum Action: Codable, Sendable { case refresh }
  struct State: Codable, Sendable, Equatable {
    var rows = [Row(id: 1), Row(id: 2), Row(id: 3)]
  }

  let initialState = State()
  let runtime = Runtime()

  func reduce(state: State, mutation: Action) -> State { state }
}

/// What an address that selects among an array's elements says when they are not reactors.
@MainActor
@Suite("Address errors count what the array holds")
struct AddressErrorTests {
  @Test func aSelectorOverAnArrayOfValuesSaysTheyAreNotReactorReferences() throws {
    let recorder = try SessionRecorder()
    let screen = RowsScreenReactor()
    recorder.record(screen, name: "screen")
    defer { recorder.stop() }
    let address = try ReactorAddress(parsing: "screen/rows[id=2]")
    #expect(throws: ReactorAddressError.self) { try address.reactor(in: recorder) }
    do {
      _ = try address.reactor(in: recorder)
    } catch {
      #expect(
        error.description
          == "'screen/rows[id=2]' reaches no reactor: the 3 elements at rows in the state of "
          + #"'screen' are not references to reactors ({"reactor": id}) but values such as "#
          + #"{"id":1}: a selector picks among the reactors an array refers to"#)
    }
  }
}

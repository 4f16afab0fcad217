/// A state field that has been read through an ``ObservedReactor``: the id of the key path
/// observation tracks it under, and how to tell whether it changed.
struct ObservedField<State> {
  let id: Int
  let hasChanged: (State, State) -> Bool
}

import Testing

/// ReactorKit's own unit tests (its `Tests/ReactorKitTests`), each rewritten against our API.
///
/// Every suite is named after the ReactorKit test file it ports, and every test after the
/// behaviour it pins; where we do not reproduce a ReactorKit test exactly,
/// `docs/semantics.md` ("Differences from ReactorKit's own tests") names it, says why, and
/// names the test here that pins our alternative. Nested here so the suites run one at a
/// time: the tests that drive a `TestClock` switch the main serial executor on.
@MainActor
@Suite(.serialized)
enum ReactorKitPort {}

/// A mutable reference, for collecting values in closures.
@MainActor
final class Box<Value> {
  var value: Value
  init(_ value: Value) { self.value = value }
}

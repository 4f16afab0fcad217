import Dispatch
import ReactorExploration
import ReactorJSON
import ReactorScript
import ReactorShrinking
import ReactorTracing

/// `shrink`'s inputs, fuzzed (issue 40): a failing run's file turned into an app's script,
/// the conditions `--until-state` reads, and the shrinker itself on any script.
///
/// - A session that reads and that ``ShrinkInput/script(of:name:)`` turns into a script gives
///   one whose text reads back as the same steps, every `to` reading back as the same address
///   (a reactor's name or a selector's value that does not survive being written would send
///   the shrunk script's steps elsewhere).
/// - A condition read from the input's first line (`--until-state`) is written back as it is
///   read; on a session, the condition spelled from the state that broke an "invariant"
///   (`spellingInvariantAsState`, what `shrink` writes into a test) holds at that same moment
///   or earlier.
/// - The shrinker on a script of the input, with a runner that meets the condition when two
///   of the script's steps (picked by the input's hash) have run: its result still meets it,
///   keeps at most the input's steps, is 1-minimal when it says so, and is the same twice.
enum ShrinkFuzz {
  /// Checks every property that applies to `bytes`.
  static func check(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    checkCondition(text)
    if let session = unverifiedSession(bytes), session.events.count <= 2_000 {
      checkScriptOfSession(session)
      checkSpelledInvariant(session, text: text)
    }
    if let script = try? ReactorScript(parsing: text, name: "fuzz"),
      (1...24).contains(script.steps.count)
    {
      checkShrinker(script, seed: hash(bytes))
    }
  }

  /// The session (or trace read as one) in `bytes`, its states' hashes not checked, so that
  /// changed states (keys holding `=`, `,`, `:`, dots) reach the conditions.
  private static func unverifiedSession(_ bytes: [UInt8]) -> SessionTrace? {
    guard let reader = try? SessionReader(bytes: bytes, name: "fuzz", verifyingStates: false)
    else { return nil }
    var events: [SessionEvent] = []
    do {
      while let event = try reader.next() {
        events.append(event)
        if events.count > 2_000 { return nil }
      }
    } catch {
      return nil
    }
    return SessionTrace(header: reader.header, events: events, warnings: reader.warnings)
  }

  /// A condition part, as `--until-state` reads it: its description reads back as itself.
  private static func checkCondition(_ text: String) {
    let firstLine = String(text.prefix { $0 != "\n" }.prefix(512))
    guard let term = try? ShrinkCondition.StateTerm(parsing: firstLine) else { return }
    guard let again = try? ShrinkCondition.StateTerm(parsing: term.description) else {
      fatalError("a condition does not read back from its description: \(term.description)")
    }
    guard again == term else {
      fatalError("a condition reads back as another: \(term.description) → \(again.description)")
    }
  }

  /// A session's script: its text reads back as the same steps.
  private static func checkScriptOfSession(_ session: SessionTrace) {
    guard let script = try? ShrinkInput.script(of: session, name: "fuzz") else { return }
    for step in script.steps {
      guard let target = step.target else { continue }
      let written = target.description
      guard let again = try? ReactorAddress(parsing: written), again == target else {
        fatalError(
          "a session's script addresses a reactor as '\(written)', which reads back as another")
      }
    }
    let again: ReactorScript
    do {
      again = try ReactorScript(parsing: script.text, name: "again")
    } catch {
      fatalError("a session's script does not read back: \(error)\n\(script.text)")
    }
    guard again.steps.map(\.target) == script.steps.map(\.target),
      again.steps.map(\.time) == script.steps.map(\.time),
      again.app == script.app, again.metadata == script.metadata
    else {
      fatalError("a session's script reads back as another:\n\(script.text)")
    }
  }

  /// The condition spelled from a broken "invariant" (here: a reactor whose state's JSON
  /// has an odd length, of the reactor type named by the hash) holds at the moment the
  /// invariant broke, or earlier.
  private static func checkSpelledInvariant(_ session: SessionTrace, text: String) {
    let condition = ShrinkCondition(brokenInvariant: true)
    let check: (String, JSONValue) -> String? = { _, state in
      state.serializedString.utf8.count % 2 == 1 ? "odd" : nil
    }
    guard let match = condition.firstMatch(in: session, brokenInvariant: check),
      let spelled = condition.spellingInvariantAsState(in: session, brokenInvariant: check)
    else { return }
    guard let held = spelled.firstMatch(in: session), held.sequence <= match.sequence else {
      fatalError(
        "the condition spelled from a broken invariant at event \(match.sequence) "
          + "(\(spelled)) does not hold then")
    }
    // What `shrink` writes on the command line reads back as the same condition.
    for term in spelled.states {
      guard let again = try? ShrinkCondition.StateTerm(parsing: term.description), again == term
      else {
        fatalError("a spelled condition part does not read back: \(term.description)")
      }
    }
  }

  /// The shrinker with a runner that meets the condition once two chosen steps have run.
  private static func checkShrinker(_ script: ReactorScript, seed: UInt64) {
    let steps = script.orderedSteps
    let first = Int(seed % UInt64(steps.count))
    let second = Int((seed >> 20) % UInt64(steps.count))
    let runner = PredicateRunner(needed: Set([first, second]).sorted().map { steps[$0] })
    let shrinker = Shrinker(runner: runner)
    guard let result = blocking({ try? await shrinker.shrink(script) }) else {
      fatalError("the shrinker did not shrink a script that meets its condition")
    }
    let kept = result.script.orderedSteps
    guard kept.count <= steps.count, runner.outcome(kept).isMet else {
      fatalError("the shrunk script (\(kept.count) steps) does not meet the condition")
    }
    if result.isOneMinimal {
      for index in kept.indices {
        var fewer = kept
        fewer.remove(at: index)
        if runner.outcome(fewer).isMet {
          fatalError("a shrunk script said to be 1-minimal keeps step \(index), which can go")
        }
      }
    }
    guard let again = blocking({ try? await shrinker.shrink(script) }),
      again.script.text == result.script.text
    else {
      fatalError("the shrinker gave two results for one input")
    }
  }

  /// Runs `body` to its end from this synchronous entry point.
  private static func blocking<T: Sendable>(
    _ body: @escaping @Sendable () async -> T
  ) -> T {
    let box = Box<T>()
    let done = DispatchSemaphore(value: 0)
    Task.detached {
      box.value = await body()
      done.signal()
    }
    done.wait()
    return box.value!
  }

  private final class Box<T>: @unchecked Sendable {
    var value: T?
  }

  private static func hash(_ bytes: [UInt8]) -> UInt64 {
    bytes.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
  }

  /// Meets the condition when every needed step (same target and input) has run, and says
  /// after how many.
  struct PredicateRunner: ShrinkRunner {
    var needed: [ReactorScript.Step]

    var parallelism: Int { 2 }

    func run(_ scripts: [ReactorScript]) async throws(ShrinkError) -> [ShrinkRun] {
      scripts.map { outcome($0.orderedSteps) }
    }

    func outcome(_ steps: [ReactorScript.Step]) -> ShrinkRun {
      var missing = needed.map { ($0.target, $0.input) }
      for (index, step) in steps.enumerated() {
        if let found = missing.firstIndex(where: { $0.0 == step.target && $0.1 == step.input }) {
          missing.remove(at: found)
        }
        if missing.isEmpty { return ShrinkRun(isMet: true, stepsRun: index + 1) }
      }
      return ShrinkRun(isMet: false, stepsRun: steps.count)
    }
  }
}

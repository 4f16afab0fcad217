import ReactorScript
import ReactorTracing

extension Shrinker {
  /// One shrink's state: the best steps so far and what earlier runs told.
  struct Search {
    /// Why the search stopped early.
    enum Stop: Error {
      case timeLimit
      case runner(ShrinkError)
    }

    /// A step as candidates compare it: without the line it was read from.
    struct Key: Hashable {
      var time: Duration
      var input: ReactorScript.Step.Input
      var target: ReactorAddress?

      init(_ step: ReactorScript.Step) {
        time = step.time
        input = step.input
        target = step.target
      }
    }

    /// The steps a met run had run when it met the condition, and when its next step was
    /// due (`nil`: it had no next step).
    struct MetPrefix {
      var keys: [Key]
      var nextTime: Duration?
    }

    let shrinker: Shrinker
    let template: ReactorScript
    /// The best steps so far.
    var steps: [ReactorScript.Step]
    let progress: (@Sendable (ShrinkProgress) -> Void)?
    var runs = 0
    var reused = 0
    var detail: String?
    var phase = ShrinkProgress.Phase.input
    private var known: [[Key]: ShrinkRun] = [:]
    private var metPrefixes: [MetPrefix] = []
    private let start = ContinuousClock.now

    init(
      shrinker: Shrinker, template: ReactorScript, steps: [ReactorScript.Step],
      progress: (@Sendable (ShrinkProgress) -> Void)?
    ) {
      self.shrinker = shrinker
      self.template = template
      self.steps = steps
      self.progress = progress
    }

    private var isFast: Bool { shrinker.options.strategy == .fast }

    /// A script of `steps`, with the input's header.
    func script(_ steps: [ReactorScript.Step]) -> ReactorScript {
      ReactorScript(
        name: template.name, reactor: template.reactor, app: template.app,
        metadata: template.metadata, steps: steps)
    }

    /// Tells the watcher where the search is.
    mutating func enter(_ phase: ShrinkProgress.Phase) {
      self.phase = phase
      report()
    }

    private func report() {
      progress?(
        ShrinkProgress(
          phase: phase, runs: runs, steps: steps.count, inputSteps: template.steps.count))
    }

    /// Takes `candidate`, met by `run`: cut after the steps that had run (fast strategy).
    mutating func accept(_ candidate: [ReactorScript.Step], run: ShrinkRun) {
      steps = isFast ? Array(candidate.prefix(run.stepsRun)) : candidate
      if run.detail != nil { detail = run.detail }
      report()
    }

    /// The outcome of `candidate` if an earlier run tells it.
    private func knownOutcome(_ keys: [Key]) -> ShrinkRun? {
      if let run = known[keys] { return run }
      guard isFast else { return nil }
      for prefix in metPrefixes where keys.count >= prefix.keys.count {
        guard keys.starts(with: prefix.keys) else { continue }
        if keys.count == prefix.keys.count {
          return ShrinkRun(isMet: true, stepsRun: keys.count)
        }
        if let next = prefix.nextTime, keys[prefix.keys.count].time >= next {
          return ShrinkRun(isMet: true, stepsRun: prefix.keys.count)
        }
      }
      return nil
    }

    /// Runs the candidates (what earlier runs tell is not run again), at most the runner's
    /// parallelism at a time, and returns every outcome.
    mutating func run(
      _ candidates: [[ReactorScript.Step]], phase: ShrinkProgress.Phase
    ) async throws(Stop) -> [ShrinkRun] {
      if self.phase != phase { enter(phase) }
      if let limit = shrinker.options.timeLimit, ContinuousClock.now - start > limit {
        throw .timeLimit
      }
      let keys = candidates.map { $0.map(Key.init) }
      var outcomes = keys.map(knownOutcome)
      let missing = outcomes.indices.filter { outcomes[$0] == nil }
      reused += candidates.count - missing.count
      guard !missing.isEmpty else { return outcomes.map { $0! } }
      let results: [ShrinkRun]
      do {
        results = try await shrinker.runner.run(missing.map { script(candidates[$0]) })
      } catch {
        throw .runner(error)
      }
      runs += missing.count
      for (index, result) in zip(missing, results) {
        outcomes[index] = result
        known[keys[index]] = result
        if isFast, result.isMet {
          let ran = keys[index].prefix(result.stepsRun)
          let next =
            result.stepsRun < keys[index].count ? keys[index][result.stepsRun].time : nil
          metPrefixes.append(MetPrefix(keys: Array(ran), nextTime: next))
        }
      }
      return outcomes.map { $0! }
    }

    /// The first candidate, in order, that meets the condition, running them a batch of the
    /// runner's parallelism at a time.
    mutating func firstMet(
      _ candidates: [[ReactorScript.Step]], phase: ShrinkProgress.Phase
    ) async throws(Stop) -> (candidate: [ReactorScript.Step], run: ShrinkRun)? {
      let width = max(1, shrinker.runner.parallelism)
      var start = 0
      while start < candidates.count {
        let batch = Array(candidates[start..<min(start + width, candidates.count)])
        let outcomes = try await run(batch, phase: phase)
        if let index = outcomes.firstIndex(where: \.isMet) {
          return (batch[index], outcomes[index])
        }
        start += width
      }
      return nil
    }

    /// `steps` in `count` chunks of nearly equal size, in order.
    private func chunks(of count: Int) -> [Range<Int>] {
      (0..<count).map { index in
        (steps.count * index / count)..<(steps.count * (index + 1) / count)
      }
    }

    /// Delta debugging over complements from granularity `n`, until no single step can go.
    /// - Returns: Whether a step was dropped.
    @discardableResult
    mutating func removeSteps(granularity: Int) async throws(Stop) -> Bool {
      var n = min(max(granularity, 2), max(steps.count, 1))
      var removed = false
      while !steps.isEmpty {
        let phase: ShrinkProgress.Phase = n >= steps.count ? .checking : .removing
        let complements = chunks(of: n).map { chunk in
          Array(steps[..<chunk.lowerBound] + steps[chunk.upperBound...])
        }
        if let (candidate, run) = try await firstMet(complements, phase: phase) {
          accept(candidate, run: run)
          removed = true
          n = min(max(n - 1, 2), max(steps.count, 1))
          continue
        }
        guard n < steps.count else { break }
        n = min(n * 2, steps.count)
      }
      return removed
    }

    /// Zeller and Hildebrandt's ddmin: subsets, then complements.
    mutating func plainDeltaDebugging() async throws(Stop) {
      var n = 2
      while steps.count >= 2 {
        let parts = chunks(of: min(n, steps.count))
        let subsets = parts.map { Array(steps[$0]) }
        if let (candidate, run) = try await firstMet(subsets, phase: .removing) {
          accept(candidate, run: run)
          n = 2
          continue
        }
        let complements = parts.map { chunk in
          Array(steps[..<chunk.lowerBound] + steps[chunk.upperBound...])
        }
        if let (candidate, run) = try await firstMet(complements, phase: .removing) {
          accept(candidate, run: run)
          n = max(n - 1, 2)
          continue
        }
        guard n < steps.count else { break }
        n = min(n * 2, steps.count)
      }
    }

    /// Moves each step earlier, with the steps after it: closing the gap before it, else
    /// halving it (in whole milliseconds).
    /// - Returns: Whether a step moved.
    mutating func moveEarlier() async throws(Stop) -> Bool {
      var moved = false
      var index = 0
      while index < steps.count {
        let gap = steps[index].time - (index == 0 ? .zero : steps[index - 1].time)
        let half = Duration.milliseconds((gap / .milliseconds(1) / 2).rounded(.down))
        var candidates: [[ReactorScript.Step]] = []
        for shift in [gap, half] where shift > .zero && (shift == gap || shift < gap) {
          var candidate = steps
          for later in index..<candidate.count { candidate[later].time -= shift }
          candidates.append(candidate)
        }
        if let (candidate, run) = try await firstMet(candidates, phase: .times) {
          accept(candidate, run: run)
          moved = true
          continue  // The same step may move again.
        }
        index += 1
      }
      return moved
    }

    /// Simplifies each step's payload, value by value.
    /// - Returns: Whether a payload changed.
    mutating func simplifyPayloads() async throws(Stop) -> Bool {
      var changed = false
      var index = 0
      while index < steps.count {
        let simpler = PayloadSimplification.candidates(for: steps[index].input)
        let candidates = simpler.map { input in
          var candidate = steps
          candidate[index].input = input
          return candidate
        }
        if let (candidate, run) = try await firstMet(candidates, phase: .payloads) {
          accept(candidate, run: run)
          changed = true
          continue  // Simpler still, perhaps.
        }
        index += 1
      }
      return changed
    }
  }
}

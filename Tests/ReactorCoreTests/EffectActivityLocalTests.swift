import Testing

@testable import ReactorCore

/// The direct read of the effect activities' task-local: whatever the binding, it reads what
/// `TaskLocal.get()` reads.
@MainActor
@Suite struct EffectActivityLocalTests {
  private let effect = ReactorActivity(reactor: 3, action: 7, effect: 2)
  private let other = ReactorActivity(reactor: 4, action: 1)

  /// The direct read, and what the public `TaskLocal.get()` reads, in the current task.
  private func reads() -> (direct: ReactorActivity?, public: ReactorActivity?) {
    (EffectActivityLocal.value, EffectActivityLocal.local.get())
  }

  @Test func readsWhatTaskLocalGetReadsForEveryBindingATaskCanSee() async {
    let local = EffectActivityLocal.forBinding
    #expect(EffectActivityLocal.boundKey != nil)
    #expect(reads() == (nil, nil))
    await local.withValue(effect) {
      #expect(reads() == (effect, effect))
      // An inner binding shadows, and `making(as:)` hides the effect's activity.
      local.withValue(other) { #expect(reads() == (other, other)) }
      ReactorActivity.making(as: nil) { #expect(reads() == (nil, nil)) }
      #expect(reads() == (effect, effect))
      // A child task and an unstructured task inherit the binding; a detached task does not.
      async let child = EffectActivityLocal.value
      #expect(await child == effect)
      #expect(await Task { @MainActor in EffectActivityLocal.value }.value == effect)
      #expect(await Task.detached { @MainActor in EffectActivityLocal.value }.value == nil)
    }
    #expect(reads() == (nil, nil))
  }

  @Test func readsABindingMadeOutsideEveryTask() {
    // Synchronous code binds into the thread's fallback storage.
    EffectActivityLocal.forBinding.withValue(effect) {
      #expect(reads() == (effect, effect))
      #expect(ReactorActivity.current == effect)
      #expect(ReactorActivity.currentReactor == 3)
    }
    #expect(reads() == (nil, nil))
  }
}

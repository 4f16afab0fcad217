// Units of work: one at a time, with a first-in first-out queue for re-entrant work.

extension ReactorRuntime {
  /// Runs `body` as one emission (a state reduced, transformed and delivered); outside a
  /// unit of work it is a unit of its own.
  @inlinable
  func withEmission(_ body: () -> Void) {
    if isEmitting {
      body()
      return
    }
    let isOutermost = !isBusy
    isBusy = true
    isEmitting = true
    body()
    isEmitting = false
    if isOutermost { endUnit() }
  }

  /// Ends the unit of work in progress and, unless the queue is already being drained, runs
  /// the work queued meanwhile.
  @inlinable
  func endUnit() {
    isBusy = false
    if !isDraining, pendingHead < pending.count { drain() }
  }

  @inlinable
  func enqueue(_ work: @escaping @MainActor () -> Void) {
    if tracksActivity || tracksOwnActivity {
      enqueueRecordingOrigin(work)
      return
    }
    pending.append(work)
  }

  /// ``enqueue(_:)`` in a recorded session: the work runs later with the origin of the
  /// value it delivers.
  @usableFromInline
  func enqueueRecordingOrigin(_ work: @escaping @MainActor () -> Void) {
    let origin = ReactorActivity.delivered
    pending.append { ReactorActivity.delivering(origin, work) }
  }

  /// Runs the queued work first-in first-out, each item as a unit of its own, until the queue
  /// is empty (items may queue more).
  @usableFromInline
  func drain() {
    isDraining = true
    while pendingHead < pending.count {
      let work = pending[pendingHead]
      pendingHead += 1
      work()
    }
    pending.removeAll(keepingCapacity: true)
    pendingHead = 0
    isDraining = false
  }
}

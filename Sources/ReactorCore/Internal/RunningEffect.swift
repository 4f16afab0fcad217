/// One async effect in flight.
@MainActor
@usableFromInline
final class RunningEffect {
  let cancelID: AnyHashable?
  var task: Task<Void, Never>?
  var isCancelled = false
  var isEnded = false

  init(cancelID: AnyHashable?) {
    self.cancelID = cancelID
  }

  func cancel() {
    isCancelled = true
    task?.cancel()
  }
}

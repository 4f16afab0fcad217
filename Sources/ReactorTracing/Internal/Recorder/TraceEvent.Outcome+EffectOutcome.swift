import ReactorCore

extension TraceEvent.Outcome {
  /// How an effect ended, as the runtime reports it to a monitor.
  init(_ outcome: EffectOutcome) {
    switch outcome {
    case .finished: self = .finished
    case .cancelled: self = .cancelled
    case .failed(let error): self = .failed(error)
    }
  }
}

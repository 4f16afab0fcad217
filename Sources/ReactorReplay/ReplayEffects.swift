/// What a mutate replay does with the asynchronous effects `mutate` starts.
public enum ReplayEffects: String, Sendable, Hashable, CaseIterable {
  /// Their bodies run, against the fakes the reactor was built with: the fakes must
  /// reproduce every service response at the recorded times.
  case run
  /// Their bodies do not run: the mutations the trace recorded for each effect are delivered
  /// at their recorded times and its recorded end (finished, cancelled, failed) is
  /// reproduced, as are the mutations of streams merged in `transform(mutation:)`. The reactor
  /// needs no fakes that answer: services that fail if called will do.
  case recorded
}

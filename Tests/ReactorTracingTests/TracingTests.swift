import Testing

/// Every tracing suite that drives reactors is nested here so they run one at a time: the
/// tests that drive `TestClock` switch the main serial executor on, which is process-wide.
@MainActor
@Suite(.serialized)
enum TracingTests {}

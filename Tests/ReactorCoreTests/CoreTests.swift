import Testing

/// Every core suite is nested here so that they run one at a time: the tests that drive
/// `TestClock` switch the main serial executor on, which is process-wide.
@MainActor
@Suite(.serialized)
enum CoreTests {}

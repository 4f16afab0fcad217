public import ReactorTracing

extension SessionReader {
  /// Whether what it reads names the reactor of each event: a session of many reactors
  /// (format 2.x), not a trace of one reactor read as a session of one.
  public var namesReactors: Bool {
    !header.isTraceOfOneReactor
  }

  /// How many events of the file were read so far: ``eventCount`` without the introduction
  /// a trace of one reactor reads with, which its header makes.
  public var fileEventCount: Int {
    namesReactors ? eventCount : max(eventCount - 1, 0)
  }
}

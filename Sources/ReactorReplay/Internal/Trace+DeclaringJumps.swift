import ReactorTracing

extension Trace {
  /// The trace, declaring version 1.4 if it holds a jump and declares an earlier version.
  ///
  /// A reactor's lane of a session (``ReactorTracing/SessionTrace/lane(of:)``) holds the
  /// session's jumps under a 1.1 header. A replay that checks jumps against the states before
  /// them keeps those states' hashes only for an input that declares it can hold one.
  var declaringItsJumps: Trace {
    guard header.version < TraceHeader.jumpVersion,
      events.contains(where: { if case .jump = $0.kind { true } else { false } })
    else { return self }
    var trace = self
    trace.header.version = TraceHeader.jumpVersion
    return trace
  }
}

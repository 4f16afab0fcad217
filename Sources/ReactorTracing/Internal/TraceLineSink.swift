/// Where a ``TraceFileWriter`` hands its encoded lines when it writes no file: a live
/// recorder's stream.
///
/// Called on the writer's thread only, in order: the header's line first, then the events'
/// lines, each call one or more whole lines ending in a newline. It may block (the writer's
/// queue in front of it then fills, and the drop policy records a gap), never the reactor.
package protocol TraceLineSink: AnyObject, Sendable {
  /// Takes whole lines, newline-terminated.
  func write(_ lines: [UInt8])
  /// The writer has written its last line (the end line, after `stop()`).
  func finish()
}

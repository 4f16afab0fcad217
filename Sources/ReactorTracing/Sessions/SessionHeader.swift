/// The first line of a session trace: a run of many reactors, recorded into one file.
///
/// ```json
/// {"format":"reactor-trace","version":"2.0","recorder":"reactor-trace-swift 0.1.0",
///  "clock":{"name":"TestClock<Duration>"},"metadata":{"app":"TaskApp"}}
/// ```
///
/// Unlike a ``TraceHeader`` it names no reactor: each reactor is introduced by a `reactor`
/// event of its own (``ReactorIntroduction``), with its type, schema and initial state. The
/// major version is 2, so that a reader that knows only traces of one reactor (format 1.x)
/// refuses the file instead of reading the interleaved events of several reactors as one.
public struct SessionHeader: Hashable, Sendable {
  /// The format version of session traces this library writes and reads.
  public static let currentVersion = TraceFormatVersion(major: 2, minor: 0)
  /// The format version of a session window that dropped the start of the run: 2.1, which
  /// adds the header's `window`.
  public static let windowVersion = TraceFormatVersion(major: 2, minor: 1)
  /// The format version of a session that may hold ``TraceEvent/Jump`` events: 2.2, which
  /// includes 2.1's window.
  public static let jumpVersion = TraceFormatVersion(major: 2, minor: 2)

  /// The format version the trace was written in: 2.x, or 1.x for a trace of one reactor read
  /// as a session.
  public var version: TraceFormatVersion
  /// What wrote the trace, for diagnostics: `reactor-trace-swift 0.1.0`.
  public var recorder: String?
  /// The clock that timed the events of every reactor.
  public var clock: TraceHeader.Clock
  /// Free-form facts about the run: app version, device, test name.
  public var metadata: [String: String]
  /// The redaction rules that were applied to payloads and states.
  public var redactions: [String]
  /// Set when a rolling window dropped the start of the run (a session flight recorder's
  /// window, format 2.1, or a windowed trace of one reactor read as a session): the part of
  /// the recording the window kept.
  public var window: TraceHeader.Window?

  /// Whether this is the header of a trace of one reactor (format 1.x) read as a session: its
  /// one reactor, id 1, has no introduction or release in the file, and the file names no app.
  public var isTraceOfOneReactor: Bool { version.major == TraceHeader.currentVersion.major }

  /// A session header.
  public init(
    version: TraceFormatVersion = SessionHeader.currentVersion, recorder: String? = nil,
    clock: TraceHeader.Clock, metadata: [String: String] = [:], redactions: [String] = [],
    window: TraceHeader.Window? = nil
  ) {
    self.version = version
    self.recorder = recorder
    self.clock = clock
    self.metadata = metadata
    self.redactions = redactions
    self.window = window
  }

  /// The session header of a trace of one reactor: its clock, recorder, metadata, redactions
  /// and window, under the trace's own version.
  /// - Parameter header: The trace's header.
  public init(_ header: TraceHeader) {
    self.init(
      version: header.version, recorder: header.recorder, clock: header.clock,
      metadata: header.metadata, redactions: header.redactions, window: header.window)
  }
}

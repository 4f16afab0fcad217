import ReactorJSON
import ReactorSchema

/// The first line of a trace: what was recorded, with what types, from which state.
///
/// ```json
/// {"format":"reactor-trace","version":"1.0","reactor":"Examples.CounterReactor",
///  "clock":{"name":"ContinuousClock","origin":"2026-11-22T09:30:00.000Z"},
///  "schema":{…},"initialState":{"isLoading":false,"value":0},
///  "initialStateHash":"8f0c…","metadata":{"test":"counterIncrements"}}
/// ```
public struct TraceHeader: Hashable, Sendable {
  /// The `format` every trace declares.
  public static let formatName = "reactor-trace"

  /// The format version this library writes, and the newest major version it reads.
  public static let currentVersion = TraceFormatVersion(major: 1, minor: 1)
  /// The format version of a recording that may hold ``TraceEvent/Jump`` events: 1.4, which
  /// includes 1.2's gaps and 1.3's effect ids.
  public static let jumpVersion = TraceFormatVersion(major: 1, minor: 4)

  /// The format version the trace was written in.
  public var version: TraceFormatVersion
  /// The reactor's type, module-qualified: `Examples.CounterReactor`.
  public var reactor: String
  /// What wrote the trace, for diagnostics: `reactor-trace-swift 0.1.0`.
  public var recorder: String?
  /// The clock that timed the events.
  public var clock: Clock
  /// The shapes of the Action, Mutation and State types, for replay's compatibility check.
  public var schema: TraceSchema
  /// The state before the first event: the reactor's initial state, or with a rolling window
  /// the state before the window's first event.
  public var initialState: State
  /// The hash of ``initialState``.
  public var initialStateHash: TraceHash
  /// Free-form facts about the run: app version, device, test name.
  public var metadata: [String: String]
  /// The redaction rules that were applied to payloads and states.
  public var redactions: [String]
  /// Set when a rolling window dropped the start of the recording.
  public var window: Window?

  /// A header.
  public init(
    version: TraceFormatVersion = TraceHeader.currentVersion, reactor: String,
    recorder: String? = nil, clock: Clock, schema: TraceSchema, initialState: State,
    initialStateHash: TraceHash, metadata: [String: String] = [:], redactions: [String] = [],
    window: Window? = nil
  ) {
    self.version = version
    self.reactor = reactor
    self.recorder = recorder
    self.clock = clock
    self.schema = schema
    self.initialState = initialState
    self.initialStateHash = initialStateHash
    self.metadata = metadata
    self.redactions = redactions
    self.window = window
  }

  /// The clock that timed a recording.
  public struct Clock: Hashable, Sendable {
    /// The clock's type: `ContinuousClock`, `TestClock<Duration>`.
    public var name: String
    /// The wall-clock time the recording began, in ISO 8601 UTC; absent for virtual clocks
    /// so recordings on them are reproducible byte for byte.
    public var origin: String?

    /// A clock description.
    public init(name: String, origin: String?) {
      self.name = name
      self.origin = origin
    }
  }

  /// A state stored whole.
  public enum State: Hashable, Sendable {
    /// The state's Codable encoding.
    case json(JSONValue)
    /// `String(describing:)` of a state whose type is not Codable.
    case description(String)

    /// The state's length as stored: its canonical JSON or its description, in bytes.
    var length: Int {
      switch self {
      case .json(let json): json.serialized.count
      case .description(let description): description.utf8.count
      }
    }
  }

  /// The part of a recording a rolling window kept.
  public struct Window: Hashable, Sendable {
    /// The sequence number of the first event in the trace.
    public var firstSequence: Int
    /// How many events before it were dropped.
    public var droppedEvents: Int

    /// A window.
    public init(firstSequence: Int, droppedEvents: Int) {
      self.firstSequence = firstSequence
      self.droppedEvents = droppedEvents
    }
  }
}

/// A trace format version: `major.minor`.
///
/// Readers read every minor version of their major
/// version, ignoring what they do not know; a new major version is not readable by old readers.
public struct TraceFormatVersion: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// Changes that old readers cannot read.
  public var major: Int
  /// Additions that old readers can ignore.
  public var minor: Int

  /// A version.
  public init(major: Int, minor: Int) {
    self.major = major
    self.minor = minor
  }

  /// Parses `1.0`; `nil` for anything else.
  public init?(_ text: String) {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 2, let major = Int(parts[0]), let minor = Int(parts[1]), major >= 0,
      minor >= 0
    else { return nil }
    self.init(major: major, minor: minor)
  }

  /// `1.0`.
  public var description: String { "\(major).\(minor)" }

  /// Orders versions by major, then minor.
  public static func < (lhs: Self, rhs: Self) -> Bool {
    (lhs.major, lhs.minor) < (rhs.major, rhs.minor)
  }
}

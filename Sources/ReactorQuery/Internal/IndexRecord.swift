/// What an index keeps of one event, at a fixed size, so that the `n`th event's record is at
/// `n * stride` in the index file.
struct IndexRecord: BitwiseCopyable {
  /// The event's kind.
  enum Kind: Int64 {
    case introduced, released, action, effectStart, effectEnd, mutation, streamEnd, gap, end
    /// A jump to a recorded state (format 1.4 and 2.2); last, so that older indexes keep
    /// their numbers.
    case jump

    /// The kind's name in answers, as `replay --json` names steps.
    var name: String {
      switch self {
      case .introduced: "reactor"
      case .released: "release"
      case .action: "action"
      case .effectStart: "effectStart"
      case .effectEnd: "effectEnd"
      case .mutation: "mutation"
      case .streamEnd: "streamEnd"
      case .gap: "gap"
      case .end: "end"
      case .jump: "jump"
      }
    }
  }

  /// How an event links to its cause.
  enum Link: Int64 {
    /// No cause recorded (a release, a gap, the end, a stream's end).
    case none
    /// A sent action from no reactor: the user's (a tap, a view's event).
    case user
    /// An element of a stream from outside the app (`note` names the stream).
    case externalStream
    /// The action that started an effect, or that returned a mutation.
    case action
    /// The effect that sent a mutation, or that ended.
    case effect
    /// Another reactor's action or effect (`from`).
    case origin
    /// The reactor's own action or effect that published a stream element (`publishedBy`).
    case publisher
    /// The event during which a reactor was created (`createdDuring`, a `seq`).
    case createdDuring
  }

  var sequence: Int64 = 0
  var time: Int64 = 0
  var reactor: Int64 = 0
  var kind: Int64 = 0
  /// The action's, effect's or mutation's id; the dropped count of a gap.
  var identifier: Int64 = 0
  var labelOffset: Int64 = 0
  var labelCount: Int64 = 0
  /// A second text: the stream's name, an effect's outcome.
  var noteOffset: Int64 = 0
  var noteCount: Int64 = 0
  /// A mutation's changed paths, in the paths file.
  var pathsOffset: Int64 = 0
  var pathsCount: Int64 = 0
  var link: Int64 = 0
  /// The record of the cause, -1 when the trace does not hold it.
  var causeRecord: Int64 = -1
  /// The cause as the event names it: reactor, action, effect (0 when none); for
  /// `createdDuring`, the `seq` in `causeAction`.
  var causeReactor: Int64 = 0
  var causeAction: Int64 = 0
  var causeEffect: Int64 = 0

  var recordKind: Kind { Kind(rawValue: kind) ?? .end }
  var recordLink: Link { Link(rawValue: link) ?? .none }

  static let stride = MemoryLayout<IndexRecord>.stride
}

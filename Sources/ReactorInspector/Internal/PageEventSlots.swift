/// The members of an event in the inspector's page data, by kind: the one table both sides
/// of the page name them by.
///
/// ``PageDataWriter`` writes every event as an array, the ``common`` members first, then the
/// members of its kind in this order. The page's script reads them through `Slot`, generated
/// from this table into `Page/event-slots.js` (`e[Slot.mutation.label]`), and a test checks
/// every event of the example traces' pages against it.
package enum PageEventSlots {
  /// One kind of event: the letter it is written with, its name in the script, its members.
  package struct Kind: Sendable {
    /// The letter in the event's `kind` member.
    package var letter: String
    /// The name of the kind's members in `Slot`.
    package var name: String
    /// The kind's members after the common ones, in the order they are written.
    package var slots: [String]
  }

  /// The members every event starts with: its sequence number, its time in nanoseconds, the
  /// letter of its kind and the id of its reactor (1 in a trace of one reactor, 0 for what
  /// belongs to the whole session: a gap, the end).
  package static let common = ["seq", "time", "kind", "reactor"]

  /// Every kind and its members.
  package static let kinds = [
    // The action's id, its label, the name of the stream that sent it or null, the
    // reactor it came from as [reactor, action or null, effect or null] or null, the
    // label shown (without module prefixes) or null when it is the label, and who sent it
    // from outside the app ("page", "client") or null.
    Kind(
      letter: "a", name: "action", slots: ["id", "label", "stream", "from", "shown", "external"]),
    // The effect's id, the action that started it, the effect's name or null.
    Kind(letter: "s", name: "effectStart", slots: ["effect", "action", "name"]),
    // The effect's id, "finished", "cancelled" or "failed", the error or null.
    Kind(letter: "e", name: "effectEnd", slots: ["effect", "outcome", "error"]),
    // The mutation's id and label, the action, effect and stream that caused it (each or
    // null), its diff operations as stored (a snapshot or a description as one operation
    // at the root), the reactor a stream's element came from, as for an action, or null, and
    // the label shown, as for an action.
    Kind(
      letter: "m", name: "mutation",
      slots: ["id", "label", "action", "effect", "stream", "operations", "from", "shown"]),
    // The stream's name, its error or null.
    Kind(letter: "x", name: "streamEnd", slots: ["stream", "error"]),
    // The events the recorder observed and dropped.
    Kind(letter: "z", name: "end", slots: ["observed", "dropped"]),
    // A reactor entered the session (its name, type and parent are in the page's reactors).
    Kind(letter: "r", name: "introduced", slots: []),
    // A reactor was released: its lane ends.
    Kind(letter: "q", name: "released", slots: []),
    // Another kind (a gap, a kind added after the page): its description.
    Kind(letter: "o", name: "other", slots: ["description"]),
  ]
}

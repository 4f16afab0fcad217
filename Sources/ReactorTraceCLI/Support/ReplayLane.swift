import Foundation
import ReactorReplay
import ReactorTracing

/// One reactor's lane of the input, as a trace file a registered reactor replays: the input
/// itself when it is that reactor's trace, else the lane written to a temporary file.
struct ReplayLane {
  /// The lane's trace file.
  let path: String
  /// The metadata its reactor is built with.
  let metadata: [String: String]
  /// Whether ``path`` is a temporary file to remove.
  private let isTemporary: Bool

  /// The lane of `reactor` in the input at `path`, which `structural` replayed.
  /// - Throws: ``CommandFailure`` when the input has no such reactor.
  init(of reactor: Int, in structural: StructuralReplay, path: String) throws {
    if structural.onlyReactor == reactor {
      self.path = path
      metadata = structural.header.metadata
      isTemporary = false
      return
    }
    let session = try SessionTrace(contentsOf: path)
    guard let lane = session.lane(of: reactor) else {
      throw CommandFailure.unusableInput(
        ReplayError.noSuchReactor(
          "reactor \(reactor)", reactors: session.reactors.map(\.reactor)
        ).description)
    }
    self.path = NSTemporaryDirectory() + "reactor-trace-lane-\(getpid())-\(reactor).trace.jsonl"
    try lane.write(to: self.path)
    metadata = lane.header.metadata
    isTemporary = true
  }

  /// Removes the temporary file, if there is one.
  func remove() {
    if isTemporary { try? FileManager.default.removeItem(atPath: path) }
  }
}

internal import ReactorCore
internal import ReactorReplay

/// Replays a trace file through a reactor's `reduce` and words the failure, for the assertions.
@MainActor
enum ReplayCheck {
  /// Replays the trace at `path` through `reactor`.
  /// - Returns: The result, `nil` when the replay could not run, and the failure message,
  ///   `nil` when the replay matched.
  static func run<R: Reactor>(
    _ path: String, reduces reactor: R, allowingReactorMismatch: Bool
  ) -> (result: ReplayResult?, failure: String?) {
    do throws(ReplayError) {
      let result = try ReduceReplay.run(
        path: path, through: reactor, allowingReactorMismatch: allowingReactorMismatch)
      return (result, result.failureMessage.map { "\(path): \($0)" })
    } catch {
      return (nil, "\(path): replay failed: \(error)")
    }
  }
}

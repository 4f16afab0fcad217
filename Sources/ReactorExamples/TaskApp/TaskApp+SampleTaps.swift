import ReactorCore

extension TaskApp {
  /// The user's taps of the task app's sample session, the one `Traces/taskapp.session.jsonl`
  /// records: load the list, create a task on the edit screen, check a row, rename a task on
  /// the edit screen, delete a task from the list, load again.
  ///
  /// Bind the views first (``bindViews()``). After each group of taps it calls `pause`,
  /// which lets the service's work finish: on a test clock, advance it by the service's
  /// latency (100 ms).
  /// - Parameter pause: Waits between two groups of taps.
  public func tapThroughSample(pause: @MainActor () async -> Void) async {
    list.send(.refresh)
    await pause()
    edit.send(.setTitle("Buy milk"))
    edit.send(.save)
    await pause()
    cell(forTask: 1)?.send(.toggle)
    await pause()
    edit.send(.edit(service.tasks[1]))
    edit.send(.setTitle("Record a session"))
    edit.send(.save)
    await pause()
    list.send(.delete(id: 3))
    await pause()
    list.send(.refresh)
    await pause()
  }
}

/// The task-local that binds the activity of the effect body running in the current task,
/// read without `TaskLocal.get()`'s generic copy.
///
/// A recorded session reads it for every action sent from outside the reactors (a user's
/// tap, a test's loop). `TaskLocal.get()` is generic and not inlinable: each read went
/// through three value-witness calls, the lazy global's `swift_once` and a copy of
/// `ReactorActivity?` through its metadata: about 120 instructions an action, a sixth of
/// what a counter-sync session lane added. ``value`` asks the concurrency runtime for the
/// binding's storage directly (`swift_task_localValueGet`: the entry point that
/// `TaskLocal.get()` itself calls, part of the runtime's stable ABI) and loads the value
/// from it: about 35 instructions (docs/performance-history.md, "… fifth round"). Bindings go through the public `TaskLocal.withValue`,
/// so binding, child tasks' inheritance and the fallback storage outside a task behave
/// exactly as `@TaskLocal`'s.
@usableFromInline
enum EffectActivityLocal {
  /// The task-local itself: its object's address is the key the runtime looks up.
  static let local = TaskLocal<ReactorActivity?>(wrappedValue: nil)

  /// The address of ``local`` once something has bound it, `nil` before.
  ///
  /// Until then no task can see a binding, and ``value`` looks nothing up. Written on the
  /// main actor by ``forBinding`` only, before the first binding; read on every action of a
  /// recorded reactor (no exclusivity checks: each access is instantaneous).
  @MainActor @usableFromInline @exclusivity(unchecked) static var boundKey: UnsafeRawPointer?

  /// ``local``, for code about to bind it.
  @MainActor static var forBinding: TaskLocal<ReactorActivity?> {
    if boundKey == nil {
      boundKey = UnsafeRawPointer(Unmanaged.passUnretained(local).toOpaque())
    }
    return local
  }

  /// The binding in the current task (or, outside a task, the current thread), if any.
  @MainActor @inlinable static var value: ReactorActivity? {
    guard let key = boundKey, let storage = taskLocalValue(key) else { return nil }
    return storage.load(as: ReactorActivity?.self)
  }
}

/// The concurrency runtime's lookup of a task-local binding: the storage of the value bound
/// to `key` (a `TaskLocal`'s address) in the current task or thread, or `nil`.
@usableFromInline @_silgen_name("swift_task_localValueGet")
func taskLocalValue(_ key: UnsafeRawPointer) -> UnsafeMutableRawPointer?

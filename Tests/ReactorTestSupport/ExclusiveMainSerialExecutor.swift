import ConcurrencyExtras

/// Lets one test at a time run on the main serial executor, across every test target in the
/// process.
///
/// `withMainSerialExecutor` switches a process-wide setting, and SwiftPM runs the suites of
/// all test targets in one process, in parallel. Two tests driving `TestClock`s at once would
/// interleave each other's jobs; this gate queues them instead.
public actor SerialExecutorGate {
  /// The gate every test shares.
  public static let shared = SerialExecutorGate()

  private var isHeld = false
  private var waiters: [CheckedContinuation<Void, Never>] = []

  /// Waits until no other test holds the gate, then holds it.
  public func enter() async {
    guard isHeld else {
      isHeld = true
      return
    }
    await withCheckedContinuation { waiters.append($0) }
  }

  /// Hands the gate to the next waiting test, or opens it.
  public func leave() {
    if waiters.isEmpty {
      isHeld = false
    } else {
      waiters.removeFirst().resume()
    }
  }
}

/// Runs `operation` on the main serial executor, alone: other tests that use this function
/// wait until it is done.
///
/// - Parameter operation: The test's body.
@MainActor
public func withExclusiveMainSerialExecutor(
  _ operation: @MainActor () async throws -> Void
) async rethrows {
  await SerialExecutorGate.shared.enter()
  do {
    try await withMainSerialExecutor { @MainActor in try await operation() }
  } catch {
    await SerialExecutorGate.shared.leave()
    throw error
  }
  await SerialExecutorGate.shared.leave()
}

/// Runs `operation` alone, as ``withExclusiveMainSerialExecutor(_:)`` does, but with the main
/// serial executor off: for a test that checks that code it calls turns it on.
///
/// - Parameter operation: The test's body.
@MainActor
public func withExclusiveDefaultExecutor(
  _ operation: @MainActor () async throws -> Void
) async rethrows {
  await SerialExecutorGate.shared.enter()
  let wasSerial = uncheckedUseMainSerialExecutor
  uncheckedUseMainSerialExecutor = false
  defer { uncheckedUseMainSerialExecutor = wasSerial }
  do {
    try await operation()
  } catch {
    await SerialExecutorGate.shared.leave()
    throw error
  }
  await SerialExecutorGate.shared.leave()
}

/// Whether the process runs main-actor jobs on the main serial executor now.
public var usesMainSerialExecutor: Bool { uncheckedUseMainSerialExecutor }

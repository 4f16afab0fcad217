import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns a trap in the user's reactor code (`fatalError`, an index out of range, a forced
/// unwrap of `nil`) into a report of what was running, instead of a silent death by signal.
///
/// A Swift trap cannot be caught: the process is past saving once the trapping instruction
/// runs. So before each piece of reactor code runs — a script `explore` or `coverage` tries, an
/// action `replay` or `record` sends, a mutation `replay` reduces — the command describes it
/// with ``running(_:exitCode:)``, which formats the whole report ahead of time. The handler for
/// SIGILL and SIGTRAP (the signals a Swift trap raises on x86-64 and arm64) then only writes
/// those bytes to standard output and calls `_exit` with the code, both async-signal-safe.
/// Swift's own `Fatal error: …` line is already on standard error by then. Outside any
/// described work (``clear()``) the signal is raised again with its default action.
///
/// The search of `explore` is breadth first, so the first trap it meets is at the shortest
/// depth: the report names a shortest crashing script. The command stops there (exit 1). No
/// output file is being written while reactor code runs (commands write theirs afterwards),
/// so none is left half written; the handler takes no lock.
enum ReactorTrap {
  /// The exit code of a report: 1, as for a divergence or a broken invariant — the trap is a
  /// finding about the reactor, not a problem with the input.
  static let exitCode: Int32 = 1

  /// The two report buffers: one is published while the other is written.
  ///
  /// `nonisolated(unsafe)`: the pointers never change; the bytes of a buffer are written only
  /// while the other one is published (by the main actor, between pieces of reactor code).
  nonisolated(unsafe) private static let buffers:
    (UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<UInt8>) = (
      .allocate(capacity: capacity), .allocate(capacity: capacity)
    )

  /// The published report: 0 for none, else `(buffer index + 1) | split << 8 | length << 24 |
  /// code << 48`, where `split` is where the number of ``sequence`` goes.
  private static let published = Atomic<Int>(0)

  /// The event a replay is at, written into the report at its split; -1 for none.
  private static let sequence = Atomic<Int>(-1)

  /// The most bytes of a report; a longer one is cut.
  private static let capacity = 8 * 1024

  /// Whether the handlers are in place.
  private static let installed = Atomic<Bool>(false)

  /// Takes SIGILL and SIGTRAP from now on (once).
  static func install() {
    guard installed.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged
    else { return }
    for signalNumber in [SIGILL, SIGTRAP] {
      var action = sigaction()
      #if canImport(Darwin)
      action.__sigaction_u.__sa_handler = handle
      #else
      action.__sigaction_handler.sa_handler = handle
      #endif
      sigemptyset(&action.sa_mask)
      action.sa_flags = 0
      sigaction(signalNumber, &action, nil)
    }
  }

  /// Describes the reactor code about to run: `report` (without a final newline) is what the
  /// process prints, and `exitCode` what it exits with, if that code traps.
  static func running(_ report: String, exitCode: Int32) {
    running(report, then: "", exitCode: exitCode)
  }

  /// Describes reactor code that runs event after event: the report is `before`, the number
  /// last given to ``at(sequence:)``, then `after`, so that a replay names the event it was
  /// at for the price of one atomic store per event.
  static func running(_ before: String, then after: String, exitCode: Int32) {
    install()
    // The handler writes past standard output's buffer and exits without flushing it: what
    // the command printed so far goes out now, before the report, also through a pipe.
    fflush(nil)
    let current = published.load(ordering: .acquiring)
    let index = (current & 0xFF) == 1 ? 1 : 0
    let buffer = index == 0 ? buffers.0 : buffers.1
    var length = 0
    for byte in before.utf8 where length < capacity / 2 {
      buffer[length] = byte
      length += 1
    }
    let split = length
    for byte in (after + "\n").utf8 where length < capacity {
      buffer[length] = byte
      length += 1
    }
    sequence.store(-1, ordering: .relaxed)
    published.store(
      (index + 1) | split << 8 | length << 24 | Int(UInt8(clamping: exitCode)) << 48,
      ordering: .releasing)
  }

  /// The event (`seq`) the running replay is at: written into the report's split.
  static func at(sequence number: Int) {
    sequence.store(number, ordering: .relaxed)
  }

  /// No described reactor code runs any more: a trap from now on ends the process as usual.
  static func clear() {
    published.store(0, ordering: .releasing)
  }

  /// The signal handler: writes the published report and exits with its code.
  private static let handle: @convention(c) (Int32) -> Void = { signalNumber in
    let current = ReactorTrap.published.load(ordering: .acquiring)
    guard current != 0 else {
      signal(signalNumber, SIG_DFL)
      return
    }
    let buffer = (current & 0xFF) == 1 ? ReactorTrap.buffers.0 : ReactorTrap.buffers.1
    let split = (current >> 8) & 0xFFFF
    let length = (current >> 24) & 0xFF_FFFF
    func emit(_ bytes: UnsafePointer<UInt8>, _ count: Int) {
      var offset = 0
      while offset < count {
        let written = write(STDOUT_FILENO, bytes + offset, count - offset)
        if written <= 0 { return }
        offset += written
      }
    }
    emit(buffer, split)
    var number = ReactorTrap.sequence.load(ordering: .relaxed)
    if number >= 0 {
      // Digits by hand: no formatting call is async-signal-safe.
      var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
      withUnsafeMutableBytes(of: &digits) { raw in
        var end = raw.count
        repeat {
          end -= 1
          raw[end] = UInt8(48 + number % 10)
          number /= 10
        } while number > 0 && end > 0
        emit(raw.baseAddress!.assumingMemoryBound(to: UInt8.self) + end, raw.count - end)
      }
    }
    emit(buffer + split, length - split)
    _exit(Int32(truncatingIfNeeded: current >> 48))
  }
}

import Foundation
import Testing

@testable import reactor_trace_bench

#if canImport(Glibc)
import Glibc
#endif

/// The servers the benchmark starts hold nothing of the process that starts them.
@Suite
struct ServeProcessTests {
  /// A test process holds other tests' pipes; a server that inherited one kept its reader
  /// from seeing the end until the server stopped (issue 40's stalled live runs).
  @Test(
    .enabled(
      if: FileManager.default.fileExists(atPath: "/proc/self/fd"),
      "the bench closes inherited descriptors on Linux only"))
  func aServerHoldsNoPipeItsStarterHadOpen() throws {
    let pipe = Pipe()
    let directory = NSTemporaryDirectory() + "/serve-process-tests-" + UUID().uuidString
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let server = try ServeProcess(directory: directory)
    defer { server.remove() }
    try pipe.fileHandleForWriting.close()
    // With every write end closed, the read end is at its end at once: no one else holds it.
    var poller = pollfd(
      fd: pipe.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
    try #require(poll(&poller, 1, 0) == 1, "the server holds the pipe's write end")
    #expect(pipe.fileHandleForReading.availableData.isEmpty)
  }
}

import Foundation
import ReactorTracing
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("Atomic file writes")
struct AtomicFileTests {
  /// Runs `body` with a new empty directory that is removed afterwards.
  private func withTemporaryDirectory(_ body: (String) throws -> Void) throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("AtomicFileTests-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    defer { try? FileManager.default.removeItem(atPath: path) }
    try body(path)
  }

  private func contents(of directory: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
  }

  private func bytes(at path: String) throws -> [UInt8] {
    try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
  }

  @Test func writeCreatesFileWithExactBytes() throws {
    try withTemporaryDirectory { directory in
      let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }

      try AtomicFile.write(bytes, to: directory + "/out.bin")

      #expect(try self.bytes(at: directory + "/out.bin") == bytes)
      #expect(try contents(of: directory) == ["out.bin"])
    }
  }

  @Test func writeReplacesExistingFile() throws {
    try withTemporaryDirectory { directory in
      try AtomicFile.write(Array("old, longer contents".utf8), to: directory + "/out.txt")

      try AtomicFile.write(Array("new".utf8), to: directory + "/out.txt")

      #expect(try bytes(at: directory + "/out.txt") == Array("new".utf8))
      #expect(try contents(of: directory) == ["out.txt"])
    }
  }

  @Test func emptyContentsGiveEmptyFile() throws {
    try withTemporaryDirectory { directory in
      try AtomicFile.write([], to: directory + "/empty")

      #expect(try bytes(at: directory + "/empty") == [])
    }
  }

  @Test func relativePathIsResolvedFromWorkingDirectory() throws {
    try withTemporaryDirectory { directory in
      let depth = FileManager.default.currentDirectoryPath.split(separator: "/").count
      let relative = String(repeating: "../", count: depth) + directory.dropFirst() + "/r.bin"

      try AtomicFile.write([1, 2, 3], to: relative)

      #expect(try bytes(at: directory + "/r.bin") == [1, 2, 3])
      #expect(try contents(of: directory) == ["r.bin"])
    }
  }

  @Test func missingDirectoryFailsWithoutLeavingFiles() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/missing/out.svg"

      let error = try #require(throws: AtomicFileError.self) {
        try AtomicFile.write([1], to: path)
      }

      guard case .creationFailed(path, let temporaryPath, ENOENT) = error else {
        Issue.record("unexpected error \(error)")
        return
      }
      #expect(temporaryPath.hasPrefix(directory + "/missing/.out.svg."))
      #expect(error.description.contains(path))
      #expect(error.description.contains("No such file or directory"))
      #expect(try contents(of: directory) == [])
    }
  }

  @Test func pathThroughRegularFileFailsWithoutLeavingFiles() throws {
    try withTemporaryDirectory { directory in
      try AtomicFile.write([0], to: directory + "/file")

      let error = try #require(throws: AtomicFileError.self) {
        try AtomicFile.write([1], to: directory + "/file/out.svg")
      }

      guard case .creationFailed(_, _, ENOTDIR) = error else {
        Issue.record("unexpected error \(error)")
        return
      }
      #expect(try contents(of: directory) == ["file"])
    }
  }

  @Test(.enabled(if: geteuid() != 0, "root can write into read-only directories"))
  func unwritableDirectoryFailsWithoutLeavingFiles() throws {
    try withTemporaryDirectory { directory in
      let locked = directory + "/locked"
      try FileManager.default.createDirectory(
        atPath: locked, withIntermediateDirectories: false,
        attributes: [.posixPermissions: 0o555])
      defer { chmod(locked, 0o755) }

      let error = try #require(throws: AtomicFileError.self) {
        try AtomicFile.write([1], to: locked + "/out.svg")
      }

      guard case .creationFailed(_, _, EACCES) = error else {
        Issue.record("unexpected error \(error)")
        return
      }
      #expect(error.description.contains("Permission denied"))
      #expect(try contents(of: locked) == [])
    }
  }

  @Test func aDirectoryIsNeverReplaced() throws {
    try withTemporaryDirectory { directory in
      let target = directory + "/target"
      try FileManager.default.createDirectory(
        atPath: target + "/inside", withIntermediateDirectories: true)

      let error = try #require(throws: AtomicFileError.self) {
        try AtomicFile.write([1, 2, 3], to: target)
      }

      #expect(error == .notAFile(path: target, kind: "a directory"))
      #expect(try contents(of: directory) == ["target"])
      #expect(try contents(of: target) == ["inside"])
    }
  }

  @Test func aBatchThatIsNotCommittedLeavesEveryDestinationAsItWas() throws {
    try withTemporaryDirectory { directory in
      try AtomicFile.write(Array("old".utf8), to: directory + "/a")
      do {
        let batch = AtomicFileBatch()
        try batch.add(Array("new a".utf8), to: directory + "/a")
        try batch.add(Array("new b".utf8), to: directory + "/b")
        #expect(try contents(of: directory).count == 3)  // a and two temporary files
      }
      #expect(try contents(of: directory) == ["a"])
      #expect(try bytes(at: directory + "/a") == Array("old".utf8))
    }
  }

  @Test func aCommittedBatchReplacesEveryDestination() throws {
    try withTemporaryDirectory { directory in
      let batch = AtomicFileBatch()
      try batch.add([1], to: directory + "/a")
      try batch.add([2], to: directory + "/b")
      try batch.commit()
      #expect(try contents(of: directory) == ["a", "b"])
      #expect(try bytes(at: directory + "/b") == [2])
    }
  }

  @Test(arguments: ["", "/", "out/"])
  func pathWithoutFileNameIsInvalid(path: String) throws {
    #expect(throws: AtomicFileError.invalidPath(path)) {
      try AtomicFile.write([1], to: path)
    }
  }
}

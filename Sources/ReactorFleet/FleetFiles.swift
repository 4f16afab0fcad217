import Foundation
public import ReactorTracing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The files a fleet command reads: names, globs and directories expanded, `.gz` inflated.
public enum FleetFiles {
  /// What the names of summary files found in a directory end with.
  public static let summaryExtensions = [
    ".summary.jsonl", ".summary.jsonl.gz", "summaries.jsonl", "summaries.jsonl.gz",
  ]

  /// What the names of traces (of one reactor or a session of many) found in a directory end
  /// with.
  public static let traceExtensions = [
    ".trace.jsonl", ".trace.jsonl.gz", ".session.jsonl", ".session.jsonl.gz",
  ]

  /// The most bytes a `.gz` file may inflate to: 4 GiB.
  public static let inflatedLimit = 4 << 30

  /// The files `arguments` name, each once, in the order given.
  ///
  /// An argument naming a directory stands for every regular file below it whose name ends
  /// with one of `extensions` (sorted by path); one with `*`, `?` or `[` that names no
  /// existing file is a glob; anything else is a file name, read as it is.
  ///
  /// - Parameters:
  ///   - arguments: Files, globs and directories.
  ///   - extensions: What files found in directories end with, such as `.trace.jsonl`.
  /// - Returns: Paths.
  /// - Throws: ``FleetError/noInput(_:)`` when a glob or directory names no file.
  public static func expand(
    _ arguments: [String], extensions: [String]
  ) throws(FleetError) -> [String] {
    var result: [String] = []
    var seen: Set<String> = []
    func add(_ path: String) {
      if seen.insert(path).inserted { result.append(path) }
    }
    for argument in arguments {
      var isDirectory: ObjCBool = false
      let exists = FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory)
      if exists && isDirectory.boolValue {
        let found = files(under: argument, endingWith: extensions)
        guard !found.isEmpty else { throw .noInput(argument) }
        found.forEach(add)
      } else if !exists && argument.contains(where: { "*?[".contains($0) }) {
        let found = glob(argument)
        guard !found.isEmpty else { throw .noInput(argument) }
        found.forEach(add)
      } else {
        add(argument)
      }
    }
    return result
  }

  /// The whole file, inflated when it is gzip (by its magic number, whatever its name).
  ///
  /// - Parameter path: The file.
  /// - Returns: Its bytes.
  /// - Throws: ``FleetError/unreadable(path:reason:)`` or
  ///   ``FleetError/badCompression(path:reason:)``.
  public static func contents(of path: String) throws(FleetError) -> [UInt8] {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw .unreadable(path: path, reason: "no such file")
    }
    guard !isDirectory.boolValue else {
      throw .unreadable(path: path, reason: "it is a directory")
    }
    guard isRegularFile(path) else {
      throw .unreadable(path: path, reason: "it is not a regular file (a pipe, socket or device)")
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw .unreadable(path: path, reason: "permission denied or not a regular file")
    }
    let bytes = [UInt8](data)
    guard Gzip.isCompressed(bytes) else { return bytes }
    do {
      return try Gzip.inflate(bytes, limit: inflatedLimit)
    } catch {
      switch error {
      case .corrupt(let reason): throw .badCompression(path: path, reason: reason)
      case .truncated: throw .badCompression(path: path, reason: "it ends too early")
      case .tooLarge(let limit):
        throw .badCompression(path: path, reason: "it inflates to more than \(limit) bytes")
      }
    }
  }

  /// Whether `path` names a regular file (following symbolic links): not a directory, a
  /// named pipe, a socket or a device.
  public static func isRegularFile(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
  }

  /// A session reader over the file, inflated first when it is gzip: a trace of one reactor
  /// reads as a session of one reactor.
  ///
  /// - Parameters:
  ///   - path: A session or a trace file, `.gz` or not.
  ///   - verifyingStates: Whether to rebuild each reactor's state and check its hash.
  /// - Returns: A reader that has read the header.
  /// - Throws: ``FleetError``.
  public static func sessionReader(
    at path: String, verifyingStates: Bool = true
  ) throws(FleetError) -> SessionReader {
    let inflated = try isGzip(path) ? try contents(of: path) : nil
    do throws(TraceReadError) {
      if let inflated {
        return try SessionReader(bytes: inflated, name: path, verifyingStates: verifyingStates)
      }
      return try SessionReader(path: path, verifyingStates: verifyingStates)
    } catch {
      throw .trace(error)
    }
  }

  /// The lanes of the file's reactors, inflated first when it is gzip: a plain trace's one
  /// lane is streamed from disk each time it is opened, a session's are cut from it.
  ///
  /// - Parameter path: A session or a trace file, `.gz` or not.
  /// - Returns: Every reactor's lane, in the order they entered the file.
  /// - Throws: ``FleetError``.
  public static func lanes(at path: String) throws(FleetError) -> ReactorLanes {
    let inflated = try isGzip(path) ? try contents(of: path) : nil
    do throws(TraceReadError) {
      if let inflated {
        return ReactorLanes(session: try SessionTrace(bytes: inflated), name: path)
      }
      return try ReactorLanes(path: path)
    } catch {
      throw .trace(error)
    }
  }

  /// `bytes`, gzipped when `path` ends with `.gz`.
  public static func encoded(_ bytes: [UInt8], for path: String) -> [UInt8] {
    path.hasSuffix(".gz") ? Gzip.deflate(bytes) : bytes
  }

  private static func isGzip(_ path: String) throws(FleetError) -> Bool {
    // Never waits at opening a named pipe; one with no writer reads as empty.
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else {
      throw .unreadable(path: path, reason: String(cString: strerror(errno)))
    }
    defer { close(descriptor) }
    // Only a regular file is read here: two bytes taken from a pipe would be lost to the reader.
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return false }
    var magic: [UInt8] = [0, 0]
    let count = read(descriptor, &magic, 2)
    return count == 2 && Gzip.isCompressed(magic)
  }

  private static func files(under directory: String, endingWith extensions: [String]) -> [String] {
    guard let enumerator = FileManager.default.enumerator(atPath: directory) else { return [] }
    var found: [String] = []
    while let relative = enumerator.nextObject() as? String {
      guard extensions.contains(where: { relative.hasSuffix($0) }) else { continue }
      let path = directory.hasSuffix("/") ? directory + relative : directory + "/" + relative
      // Named pipes, sockets and devices are left out: reading one could wait for ever.
      if isRegularFile(path) { found.append(path) }
    }
    return found.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
  }

  private static func glob(_ pattern: String) -> [String] {
    var matches = glob_t()
    defer { globfree(&matches) }
    #if canImport(Glibc)
    let status = Glibc.glob(pattern, 0, nil, &matches)
    #elseif canImport(Musl)
    let status = Musl.glob(pattern, 0, nil, &matches)
    #else
    let status = Darwin.glob(pattern, 0, nil, &matches)
    #endif
    guard status == 0 else { return [] }
    var found: [String] = []
    for index in 0..<Int(matches.gl_pathc) {
      if let path = matches.gl_pathv[index] { found.append(String(cString: path)) }
    }
    return found
  }
}

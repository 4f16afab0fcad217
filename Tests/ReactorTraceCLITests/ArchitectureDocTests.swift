import Foundation
import Testing

/// docs/architecture.md against Package.swift: the same modules with the same dependencies,
/// and what an app embeds links no Graphviz, zlib or server library.
@Suite struct ArchitectureDocTests {
  /// A non-test target of Package.swift.
  struct Target: Equatable {
    /// `target`, `executableTarget` or `systemLibrary`.
    var kind: String
    /// The package's own targets it depends on.
    var targets: Set<String>
    /// The products of other packages it depends on.
    var products: Set<String>
  }

  /// The non-test targets of Package.swift, read from its text.
  static func packageTargets() throws -> [String: Target] {
    let text = try String(contentsOfFile: repositoryRoot + "/Package.swift", encoding: .utf8)
    let starts = text.matches(of: /\.(target|executableTarget|systemLibrary|testTarget)\(/)
    var targets: [String: Target] = [:]
    for (index, start) in starts.enumerated() {
      let end = index + 1 < starts.count ? starts[index + 1].range.lowerBound : text.endIndex
      let declaration = text[start.range.lowerBound..<end]
      let kind = String(start.output.1)
      guard kind != "testTarget",
        let name = declaration.firstMatch(of: /name: "([^"]+)"/)?.output.1
      else { continue }
      var target = Target(kind: kind, targets: [], products: [])
      if let list = declaration.firstMatch(of: /dependencies: \[([^\]]*)\]/)?.output.1 {
        for product in list.matches(of: /\.product\(name: "([^"]+)"[^)]*\)/) {
          target.products.insert(String(product.output.1))
        }
        let plain = list.replacing(/\.product\([^)]*\)/, with: "")
        for dependency in plain.matches(of: /"([^"]+)"/) {
          target.targets.insert(String(dependency.output.1))
        }
      }
      targets[String(name)] = target
    }
    return targets
  }

  /// The rows of the module table in docs/architecture.md: each module's own dependencies.
  static func documentedModules() throws -> [String: Set<String>] {
    let text = try String(
      contentsOfFile: repositoryRoot + "/docs/architecture.md", encoding: .utf8)
    let section = try #require(text.firstRange(of: "## Modules\n"))
    var modules: [String: Set<String>] = [:]
    for line in text[section.upperBound...].split(separator: "\n") {
      if line.hasPrefix("## ") { break }
      guard line.hasPrefix("| `") else { continue }
      let cells = line.split(separator: "|", omittingEmptySubsequences: false)
      guard cells.count >= 5 else { continue }
      let name = try #require(cells[1].firstMatch(of: /`([^`]+)`/)?.output.1)
      modules[String(name)] = Set(cells[3].matches(of: /`([^`]+)`/).map { String($0.output.1) })
    }
    return modules
  }

  /// `roots` and everything they depend on, with the products of other packages.
  static func closure(of roots: [String], in targets: [String: Target]) -> Set<String> {
    var seen: Set<String> = []
    var pending = roots
    while let name = pending.popLast() {
      guard seen.insert(name).inserted, let target = targets[name] else { continue }
      pending += target.targets
      seen.formUnion(target.products.map { "product " + $0 })
    }
    return seen
  }

  @Test func theModuleTableListsEveryTargetWithItsDependencies() throws {
    let targets = try Self.packageTargets()
    let documented = try Self.documentedModules()
    #expect(targets.count > 20)
    let fix = "update the module table of docs/architecture.md to match Package.swift"
    #expect(
      Set(documented.keys) == Set(targets.keys),
      """
      missing from the doc: \(Set(targets.keys).subtracting(documented.keys).sorted()); \
      not in Package.swift: \(Set(documented.keys).subtracting(targets.keys).sorted()); \(fix)
      """)
    for (name, target) in targets.sorted(by: { $0.key < $1.key }) {
      guard let dependencies = documented[name] else { continue }
      #expect(
        dependencies == target.targets,
        "\(name) depends on \(target.targets.sorted()), the doc says \(dependencies.sorted()); \(fix)"
      )
    }
  }

  @Test func whatAnAppEmbedsReachesNoGraphvizZlibOrServerLibrary() throws {
    let targets = try Self.packageTargets()
    let embedded = Self.closure(
      of: ["ReactorCore", "ReactorTracing", "ReactorLiveRecording", "reactor-trace-live-example"],
      in: targets)
    #expect(embedded.contains("ReactorTracing"))
    for forbidden in ["CGraphviz", "CZlib", "product FlyingFox", "product FlyingSocks"] {
      #expect(!embedded.contains(forbidden), "an app's modules reach \(forbidden)")
    }
    let tool = Self.closure(of: ["reactor-trace"], in: targets)
    #expect(tool.contains("CGraphviz"))
    #expect(!tool.contains("product FlyingFox") && !tool.contains("ReactorLiveServer"))
  }

  /// The libraries the built binaries load, where `ldd` and the binaries are there (Linux,
  /// after `swift build`): the table "What links what" of the doc.
  @Test func theBuiltBinariesLoadWhatTheDocSays() throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ldd") else { return }
    let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    func loaded(_ binary: String) throws -> String? {
      let path = directory.appendingPathComponent(binary).path
      guard FileManager.default.isExecutableFile(atPath: path) else { return nil }
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
      process.arguments = [path]
      let pipe = Pipe()
      process.standardOutput = pipe
      try process.run()
      let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      return text
    }
    let server = ["libFoundationNetworking", "libcurl"]
    if let app = try loaded("reactor-trace-live-example") {
      for library in ["libgvc", "libz."] + server {
        #expect(!app.contains(library), "reactor-trace-live-example loads \(library)")
      }
    }
    if let tool = try loaded("reactor-trace") {
      #expect(tool.contains("libgvc"))
      for library in server { #expect(!tool.contains(library), "reactor-trace loads \(library)") }
    }
    if let serve = try loaded("reactor-trace-serve") {
      // The server draws the live page's transitions diagrams (ReactorInspector).
      #expect(serve.contains("libgvc"))
    }
  }

  @Test func theReadmesLayoutTableNamesEveryTarget() throws {
    let targets = try Self.packageTargets()
    let readme = try String(contentsOfFile: repositoryRoot + "/README.md", encoding: .utf8)
    let start = try #require(readme.firstRange(of: "## Layout\n"))
    let section = readme[start.upperBound...]
    let table = section[..<(section.firstRange(of: "\n## ")?.lowerBound ?? section.endIndex)]
    let named = Set(table.matches(of: /`[A-Za-z]+\/([A-Za-z-]+)`/).map { String($0.output.1) })
    let missing = Set(targets.keys).subtracting(named).sorted()
    #expect(missing.isEmpty, "README's Layout table does not name \(missing)")
  }
}

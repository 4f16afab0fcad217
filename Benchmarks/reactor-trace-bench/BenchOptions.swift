/// The benchmark's command line: `reactor-trace-bench [--runs N] [--filter LIST] [--quick]
/// [--work-dir DIR] [--keep] [--list]`.
struct BenchOptions: Equatable, Sendable {
  /// Runs per row; the table shows their medians.
  var runs = 3
  /// Parts of row names, such as `counter-sync`, `untraced` or `trace-read/1M`.
  ///
  /// A row runs if its name contains any of them; empty runs every row.
  var filters: [String] = []
  /// Divides every size by 10 and runs once: a smoke test, not a measurement.
  var isQuick = false
  /// Where traces and diagrams go; a new temporary directory, removed afterwards, if `nil`.
  var workDirectory: String?
  /// Whether to keep the temporary directory.
  var keepsFiles = false
  /// Whether to list the rows instead of running them.
  var listsRows = false
  /// Whether to print the usage.
  var showsHelp = false

  /// The usage text.
  static let usage = """
    USAGE: reactor-trace-bench [--runs N] [--filter NAMES] [--quick] [--work-dir DIR] [--keep] [--list]

    Runs every scenario, each run in a child process of its own, and prints a Markdown table of
    medians with the peak memory (maximum RSS) of each row. Build in release first:
      swift run -c release reactor-trace-bench

    OPTIONS:
      --runs N          Runs per row (default 3); the table shows medians.
      --filter NAMES    Comma-separated parts of row names, e.g. counter-sync,trace-read/1M.
      --quick           Every size divided by 10, one run: a smoke test, not a measurement.
      --work-dir DIR    Where traces and diagrams go (default: a temporary directory).
      --keep            Keep the temporary directory.
      --list            List the rows and exit.
    """

  /// Parses the arguments after the program's name.
  /// - Throws: ``BenchFailure/usage(_:)`` for an unknown option or a bad value.
  init(arguments: [String]) throws(BenchFailure) {
    var explicitRuns: Int?
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      switch argument {
      case "--runs":
        guard let value = remaining.popFirst().flatMap({ Int($0) }), value >= 1 else {
          throw .usage("--runs takes a number of at least 1")
        }
        explicitRuns = value
      case "--filter":
        guard let value = remaining.popFirst() else { throw .usage("--filter takes names") }
        filters += value.split(separator: ",").map(String.init)
      case "--work-dir":
        guard let value = remaining.popFirst() else { throw .usage("--work-dir takes a path") }
        workDirectory = value
      case "--quick": isQuick = true
      case "--keep": keepsFiles = true
      case "--list": listsRows = true
      case "--help", "-h": showsHelp = true
      default: throw .usage("unknown argument '\(argument)'; see --help")
      }
    }
    runs = explicitRuns ?? (isQuick ? 1 : 3)
  }

  /// Whether the row named `id` is selected.
  func selects(_ id: String) -> Bool {
    filters.isEmpty || filters.contains { id.contains($0) }
  }
}

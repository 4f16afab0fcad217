public import ArgumentParser
import ReactorTracing

/// The `reactor-trace` command: replays and renders reactor traces.
///
/// Exit codes: 0 success; 1 a replay or diff found a divergence; 2 unusable input (a missing
/// or unreadable file, not a trace, a malformed line, an unknown format, an unwritable
/// output), with one line on standard error; 3 warnings about a trace (torn, unfinished, no end
/// line) under `--strict`; 4 coverage below `--min`; 5 `shrink` stopped at `--time-limit`; 64 a usage error (unknown option,
/// missing argument); 130 and 143 interrupted by SIGINT and SIGTERM (temporary files removed).
public struct ReactorTraceCommand: AsyncParsableCommand {
  /// The command's name, help and subcommands.
  public static let configuration = CommandConfiguration(
    commandName: "reactor-trace",
    abstract: "Replay and render traces of reactors.",
    discussion: """
      Exit codes: 0 success; 1 divergence (or a broken invariant); 2 unusable input (one \
      line on stderr); 3 warnings about a trace under --strict; 4 coverage below --min; \
      5 shrink stopped at --time-limit; 64 usage error; 130/143 interrupted by SIGINT/SIGTERM.
      """,
    version: "reactor-trace 0.1.0 (trace format \(TraceHeader.currentVersion))",
    subcommands: [
      Record.self, Replay.self, Rerecord.self, Diff.self, Render.self,
      Explore.self,
      Coverage.self,
      GenerateTest.self,
      Shrink.self,
      ShrinkWorker.self,
      Summarize.self,
      Compare.self,
      Serve.self,
      Send.self,
      Mcp.self,
    ]
  )

  /// Creates the command; ArgumentParser fills in the options.
  public init() {}
}

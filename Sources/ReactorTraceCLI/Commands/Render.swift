import ArgumentParser

extension ReactorTraceCommand {
  /// `reactor-trace render`: diagrams of traces.
  struct Render: ParsableCommand {
    /// The command's help and subcommands.
    static let configuration = CommandConfiguration(
      abstract: "Render traces as diagrams, an HTML inspector or a Perfetto trace.",
      subcommands: [
        Transitions.self, Timeline.self, Sequence.self, Inspector.self, Perfetto.self, OTLP.self,
      ]
    )

    /// Creates the command; ArgumentParser fills in the options.
    init() {}
  }
}

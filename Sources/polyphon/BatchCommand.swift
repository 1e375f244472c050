import ArgumentParser

/// `polyphon batch`: render a whole MIDI corpus; `polyphon batch merge-reports`: join the
/// reports of a batch's shards.
struct BatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Render a whole MIDI corpus on every core, resumably, with a report; or merge shard reports.",
        discussion: """
            'polyphon batch INPUT... -o OUTDIR' runs the 'render' subcommand (the default). \
            See 'polyphon batch render --help' for its options.
            """,
        subcommands: [BatchRenderCommand.self, BatchMergeReportsCommand.self],
        defaultSubcommand: BatchRenderCommand.self)
}

import ReactorTraceCLI

await ReactorTraceCommand.runFromCommandLine()

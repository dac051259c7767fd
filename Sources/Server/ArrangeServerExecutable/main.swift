import ArrangeServer

await ArrangeServerCommand.runFromCommandLine()

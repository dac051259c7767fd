import ArgumentParser
import ArrangeCommandLine

/// The `arrange` executable: it only hands the command line to ``Arrange``.
///
/// The commands are async, so they are dispatched from this async `main`, never from
/// top-level code, where the synchronous `run()` could be picked and only print help.
@main
struct ArrangeMain {
    static func main() async {
        await Arrange.runFromCommandLine()
    }
}

import ArrangeHTTPPipe
import ArrangeSyncHTTP
import Foundation

/// `arrange-remote-http`: sends the HTTP requests of `arrange sync` with `URLSession`, so that
/// `arrange` itself need not load it (on Linux, libcurl and some thirty libraries) at every start.
///
/// `arrange` starts it beside itself for a sync, writes each request to its standard input and
/// reads the response from its standard output, in the format of `HTTPPipeServer`. It ends when
/// its standard input does.
@main
struct RemoteHTTPMain {
    static let usage = """
        usage: arrange-remote-http
        Sends the HTTP requests of arrange sync: arrange starts it, writes requests to its standard
        input and reads the responses from its standard output. It is not meant to be run by hand.
        """

    static func main() async {
        let arguments = CommandLine.arguments.dropFirst()
        if arguments.contains("--help") || arguments.contains("-h") {
            print(usage)
            return
        }
        guard arguments.isEmpty, isatty(FileHandle.standardInput.fileDescriptor) == 0 else {
            FileHandle.standardError.write(Data("error: arrange-remote-http is started by arrange sync, which writes requests to it; see --help.\n".utf8))
            exit(2)
        }
        do {
            try await HTTPPipeServer.serve(
                requests: .standardInput, responses: .standardOutput, through: URLSessionHTTPTransport())
        } catch {
            FileHandle.standardError.write(Data("error: arrange-remote-http: \(error.localizedDescription)\n".utf8))
            exit(1)
        }
    }
}

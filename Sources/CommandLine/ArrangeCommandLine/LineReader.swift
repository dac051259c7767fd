import ArrangeIntents
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads lines from a file descriptor as they arrive, so that a conversation over a pipe
/// gets each answer before it sends the next line.
final class LineReader {
    private let descriptor: Int32
    private let closesDescriptor: Bool
    private var buffer: [UInt8] = []
    private var atEnd = false

    /// Reads standard input.
    static func standardInput() -> LineReader {
        LineReader(descriptor: STDIN_FILENO, closesDescriptor: false)
    }

    /// Opens a file for reading.
    ///
    /// - Throws: ``CommandLineError/input(_:)`` when it cannot be opened.
    convenience init(path: String) throws(CommandLineError) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw .input("Cannot read \(path): \(String(cString: strerror(errno)))") }
        self.init(descriptor: descriptor, closesDescriptor: true)
    }

    private init(descriptor: Int32, closesDescriptor: Bool) {
        self.descriptor = descriptor
        self.closesDescriptor = closesDescriptor
    }

    deinit {
        if closesDescriptor { close(descriptor) }
    }

    /// The next line without its line break (and a carriage return before it), or `nil` at
    /// the end; a line that is not valid UTF-8 comes as an `invalidUTF8` failure.
    ///
    /// - Throws: ``CommandLineError/input(_:)`` when reading fails.
    func readLine() throws(CommandLineError) -> Result<String, IntentFailure>? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                var line = buffer[..<newline]
                if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
                defer { buffer.removeSubrange(...newline) }
                return Self.text(line)
            }
            if atEnd {
                guard !buffer.isEmpty else { return nil }
                defer { buffer.removeAll() }
                return Self.text(buffer[...])
            }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .input("Cannot read the input: \(String(cString: strerror(errno)))")
            }
            if count == 0 { atEnd = true } else { buffer += chunk[..<count] }
        }
    }

    /// The bytes as text, refusing any that are not UTF-8 rather than replacing them.
    private static func text(_ bytes: ArraySlice<UInt8>) -> Result<String, IntentFailure> {
        guard let text = String(bytes: bytes, encoding: .utf8) else {
            return .failure(IntentFailure(code: "invalidUTF8", message: "The line is not valid UTF-8 text; send requests as UTF-8."))
        }
        return .success(text)
    }
}

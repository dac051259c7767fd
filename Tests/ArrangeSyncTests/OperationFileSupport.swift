import ArrangeSync
import Crypto
import Foundation

/// `text` (a header and operation lines, each ending in a line feed) with the trailer a version 3
/// file ends with, computed here apart from the code under test: the count of lines after the
/// header, and the SHA-256 of every byte of `text`.
func sealed(_ text: String) -> Data {
    let data = Data(text.utf8)
    let count = text.split(separator: "\n", omittingEmptySubsequences: false).count - 2
    let digest = SHA256.hash(data: data).map { String($0 >> 4, radix: 16) + String($0 & 0x0F, radix: 16) }.joined()
    return data + Data(#"{"trailer":{"count":\#(count),"sha256":"\#(digest)"}}"#.utf8) + Data("\n".utf8)
}

/// The lines of a file, without their line feeds.
func lines(of data: Data) -> [String] {
    String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
}

/// The header of a file in format `version`.
func header(version: Int) -> String {
    #"{"format":"arrange-sync","version":\#(version)}"#
}

/// `operations` as a file in format `version`: version 3 sealed with its trailer, older ones
/// without one.
func file(_ operations: [SyncOperation], version: Int = OperationFile.currentVersion) throws -> Data {
    let body = try lines(of: OperationFile.encode(OperationFile.Contents(operations: operations))).dropFirst().dropLast()
    let text = ([header(version: version)] + body).map { $0 + "\n" }.joined()
    return version >= 3 ? sealed(text) : Data(text.utf8)
}

/// A file in format `version` of these lines after its header: version 3 sealed with its trailer.
func file(lines operationLines: [String], version: Int = OperationFile.currentVersion) -> Data {
    let text = ([header(version: version)] + operationLines).map { $0 + "\n" }.joined()
    return version >= 3 ? sealed(text) : Data(text.utf8)
}

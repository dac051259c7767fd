package import Foundation

/// The JSON form of operations and rewinds, the same in files and in the log.
package enum SyncCoding {
    package static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .secondsSince1970
        return encoder
    }()

    /// A rewind of nothing, as the log keeps it.
    package static let emptyRewind = Data("{}".utf8)

    package static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }()
}

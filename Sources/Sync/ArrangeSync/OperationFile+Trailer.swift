import Crypto
import Foundation

extension OperationFile {
    /// The first format version whose files end with a trailer line: 3.
    public static let firstVersionWithTrailer = 3

    /// The last line of a version 3 file: `{"trailer":{"count":N,"sha256":"…"}}`.
    struct Trailer: Codable, Hashable {
        /// How many operation lines the file holds.
        var count: Int
        /// The SHA-256 digest, in 64 lowercase hex digits, of every byte before the trailer line.
        var sha256: String

        /// The trailer of a file whose bytes before it are `prefix`, which holds `count` operation lines.
        init(count: Int, prefix: some DataProtocol) {
            self.count = count
            self.sha256 = Self.digest(of: prefix)
        }

        /// The trailer of a file that holds `count` operation lines, whose bytes before it have `digest`.
        init(count: Int, digest: SHA256.Digest) {
            self.count = count
            self.sha256 = Self.hex(digest)
        }

        /// The line's trailer, or `nil` unless the line is a well-formed trailer.
        init?(line: Data) {
            guard let trailer = try? SyncCoding.decoder.decode(Line.self, from: line).trailer,
                  trailer.count >= 0, trailer.sha256.utf8.count == 64,
                  trailer.sha256.utf8.allSatisfy({ Self.hexDigits.contains($0) })
            else { return nil }
            self = trailer
        }

        /// The trailer as its line, with the line feed.
        func line() throws -> Data {
            try SyncCoding.encoder.encode(Line(trailer: self)) + Data("\n".utf8)
        }

        /// Whether `line` is meant as a trailer, well-formed or not: a JSON object with a
        /// `trailer` member.
        static func isMarked(_ line: Data) -> Bool {
            guard mentionsTrailer(line) else { return false }
            return (try? SyncCoding.decoder.decode(Marker.self, from: line)) != nil
        }

        /// Whether `line` holds `"trailer"`: the test that nearly every line fails, done
        /// without `Data.range(of:)`, whose generic search cost a server a few percent of its
        /// CPU under pushes.
        private static func mentionsTrailer(_ line: Data) -> Bool {
            let word = Array(#""trailer""#.utf8)
            return line.withUnsafeBytes { bytes in
                guard bytes.count >= word.count else { return false }
                for start in 0...(bytes.count - word.count) where bytes[start] == word[0] {
                    if word.indices.allSatisfy({ bytes[start + $0] == word[$0] }) { return true }
                }
                return false
            }
        }

        /// SHA-256 of `bytes`, in lowercase hex.
        static func digest(of bytes: some DataProtocol) -> String {
            hex(SHA256.hash(data: bytes))
        }

        /// A digest in lowercase hex.
        static func hex(_ digest: SHA256.Digest) -> String {
            var text = ""
            text.reserveCapacity(64)
            for byte in digest {
                text.unicodeScalars.append(Unicode.Scalar(hexDigits[Int(byte >> 4)]))
                text.unicodeScalars.append(Unicode.Scalar(hexDigits[Int(byte & 0x0F)]))
            }
            return text
        }

        private static let hexDigits = Array("0123456789abcdef".utf8)

        private struct Line: Codable {
            var trailer: Trailer
        }

        /// An object with a `trailer` member of any content.
        private struct Marker: Decodable {
            private enum CodingKeys: CodingKey { case trailer }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                guard container.contains(.trailer) else {
                    throw DecodingError.keyNotFound(CodingKeys.trailer, .init(codingPath: [], debugDescription: "No trailer."))
                }
            }
        }
    }

    /// Checks that `lines`, the lines of `data` without their line feeds, end with a trailer
    /// that counts the operation lines between it and the header, and whose digest matches every
    /// byte before it.
    ///
    /// - Throws: ``OperationFileError/lineAfterTrailer(line:)`` when a trailer comes before the
    ///   last line, ``OperationFileError/missingTrailer`` when the last line is not one,
    ///   ``OperationFileError/badTrailer(line:)`` when it is malformed,
    ///   ``OperationFileError/countMismatch(expected:found:)`` or
    ///   ``OperationFileError/digestMismatch`` when the file does not match it.
    static func verifyTrailer(of data: Data, lines: ArraySlice<Data>) throws(OperationFileError) {
        let operationLines = lines.dropFirst().dropLast()
        if let early = operationLines.firstIndex(where: Trailer.isMarked) {
            throw .lineAfterTrailer(line: early - lines.startIndex + 2)
        }
        guard lines.count >= 2, let last = lines.last, Trailer.isMarked(last) else { throw .missingTrailer }
        guard let trailer = Trailer(line: last) else { throw .badTrailer(line: lines.count) }
        guard trailer.count == operationLines.count else { throw .countMismatch(expected: trailer.count, found: operationLines.count) }
        guard trailer.sha256 == Trailer.digest(of: data[data.startIndex..<last.startIndex]) else { throw .digestMismatch }
    }
}

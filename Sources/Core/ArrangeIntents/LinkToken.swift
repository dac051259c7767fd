import ArrangeModel
import ArrangeStore
import Crypto
import Foundation

/// Makes the store's link token, in place of any it had: the token that links which update
/// to-dos and projects must carry as `auth-token` (``OpenThingsLink``), as Things asks of them.
///
/// The store keeps only the token's SHA-256 digest, so the token is shown this once; making
/// another makes the old one stop working. The token stays on this device: it is neither
/// synced, exported nor undone.
///
/// ```swift
/// let token = try await MakeLinkToken().perform(in: environment).token
/// ```
public struct MakeLinkToken: ArrangeIntent {
    public static let title = "Make Link Token"

    public init() {}

    public func run(in context: IntentContext) throws -> LinkTokenResult {
        var generator = SystemRandomNumberGenerator()
        let token = LinkToken.base58((0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }, length: 22)
        try context.writing(Self.title).apply(.setValue(LinkToken.digest(of: token), of: .linkTokenDigest))
        return LinkTokenResult(token: token)
    }
}

/// A new link token, as ``MakeLinkToken`` returns it.
public struct LinkTokenResult: Hashable, Sendable, Codable {
    /// The token: 22 characters of base 58, as Things' ids.
    public var token: String

    /// The result of `token`.
    public init(token: String) {
        self.token = token
    }
}

/// The store's link token: its digest, and the check of a link's.
enum LinkToken {
    /// Throws unless `token` is the store's link token.
    ///
    /// - Throws: ``ThingsLinkError/noToken`` when the store has none yet,
    ///   ``ThingsLinkError/missingToken`` for no token, ``ThingsLinkError/wrongToken`` for another.
    static func check(_ token: String?, in context: IntentContext) throws {
        guard let digest = try context.reading.value(of: .linkTokenDigest) else { throw ThingsLinkError.noToken }
        guard let token, !token.isEmpty else { throw ThingsLinkError.missingToken }
        guard self.digest(of: token) == digest else { throw ThingsLinkError.wrongToken }
    }

    /// The SHA-256 digest of `token`'s UTF-8, in lowercase hex.
    static func digest(of token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// `bytes` in base 58, with Bitcoin's alphabet, which leaves out 0, O, I and l, padded on
    /// the left with its zero digit, `1`, to `length` digits: 22 hold 128 bits.
    static func base58(_ bytes: [UInt8], length: Int) -> String {
        let alphabet = Array("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz")
        var number = bytes
        var digits: [Character] = []
        while number.contains(where: { $0 != 0 }) {
            var remainder = 0
            for index in number.indices {
                let value = remainder * 256 + Int(number[index])
                number[index] = UInt8(value / 58)
                remainder = value % 58
            }
            digits.append(alphabet[remainder])
        }
        digits += Array(repeating: alphabet[0], count: max(0, length - digits.count))
        return String(digits.reversed())
    }
}

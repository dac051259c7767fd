import ArrangeModel
import Foundation

extension MessageTable {
    /// ArrangeIntents's messages, in `Resources/en.lproj/Messages.strings` and its translations.
    static let intents = MessageTable(bundle: .module)
}

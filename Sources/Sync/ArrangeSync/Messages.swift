import ArrangeModel
import Foundation

extension MessageTable {
    /// ArrangeSync's messages, in `Resources/en.lproj/Messages.strings` and its translations.
    static let sync = MessageTable(bundle: .module)
}

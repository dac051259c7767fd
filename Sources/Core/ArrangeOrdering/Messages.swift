import ArrangeModel
import Foundation

extension MessageTable {
    /// ArrangeOrdering's messages, in `Resources/en.lproj/Messages.strings` and its translations.
    static let ordering = MessageTable(bundle: .module)
}

import ArrangeModel
import Foundation

extension MessageTable {
    /// ArrangeStore's messages, in `Resources/en.lproj/Messages.strings` and its translations.
    static let store = MessageTable(bundle: .module)
}

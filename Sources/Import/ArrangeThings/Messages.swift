import ArrangeModel
import Foundation

extension MessageTable {
    /// ArrangeThings's messages, in `Resources/en.lproj/Messages.strings` and its translations.
    static let things = MessageTable(bundle: .module)
}

import ArrangeModel
import Foundation

extension MessageTable {
    /// ArrangeArchive's messages, in `Resources/en.lproj/Messages.strings` and its translations.
    static let archive = MessageTable(bundle: .module)
}

import ArrangeModel
import Foundation

extension MessageTable {
    /// ArrangeSyncHTTP's messages, in `Resources/en.lproj/Messages.strings` and its translations.
    static let syncHTTP = MessageTable(bundle: .module)
}

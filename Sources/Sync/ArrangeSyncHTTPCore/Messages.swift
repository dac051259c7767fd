import ArrangeModel
import Foundation

extension MessageTable {
    /// ArrangeSyncHTTPCore's messages, in `Resources/en.lproj/Messages.strings` and its translations.
    static let syncHTTP = MessageTable(bundle: .module)
}

/// Every intent, with its description: the source of help texts, completion, and the
/// checking of requests.
///
/// ```swift
/// IntentCatalogue.intent(named: "move", keys: ["items", "placement"])  // MoveItems.self
/// IntentCatalogue.intent(named: "move", keys: ["fromOffsets", "toOffset"])  // MoveItemsAtOffsets.self
/// ```
public enum IntentCatalogue {
    /// Every intent type, in the order help lists them.
    public static let intents: [any ArrangeIntent.Type] = [
        GetLists.self, CreateList.self, RenameList.self, DeleteList.self,
        ListItems.self, ShowItem.self, AddItem.self, RenameItem.self,
        CompleteItems.self, ReopenItems.self, DeleteItems.self,
        MoveItems.self, MoveItemsAtOffsets.self,
        ValidateList.self, NormalizeList.self, Undo.self, Redo.self,
    ]

    /// Every intent's description, in the order of ``intents``.
    public static var descriptions: [IntentDescription] { intents.map { $0.description } }

    /// The distinct intent names, in the order of ``intents``.
    public static var names: [String] {
        var seen = Set<String>()
        return descriptions.map(\.name).filter { seen.insert($0).inserted }
    }

    /// The intent a request names: among the forms with that name, the one whose
    /// ``IntentDescription/selector`` is among `keys`, else the one without a selector.
    ///
    /// - Returns: `nil` when no intent has the name.
    public static func intent(named name: String, keys: Set<String>) -> (any ArrangeIntent.Type)? {
        let forms = intents.filter { $0.description.name == name }
        return forms.first { $0.description.selector.map(keys.contains) ?? false }
            ?? forms.first { $0.description.selector == nil }
    }
}

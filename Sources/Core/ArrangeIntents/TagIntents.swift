public import ArrangeModel
public import ArrangeOrdering
import ArrangeChanges
import ArrangeStore
public import Foundation

/// The tags a tag goes among: those at the top level, or the children of one tag.
public enum TagGroup: Hashable, Sendable, Codable {
    /// The tags at the top level.
    case topLevel
    /// The children of a tag.
    case children(of: Tag.ID)

    /// The group under `parent`, or the top level for `nil`.
    public init(_ parent: Tag.ID?) {
        self = parent.map(TagGroup.children) ?? .topLevel
    }

    /// The tag they are children of, or `nil` for the top level.
    public var parent: Tag.ID? {
        if case .children(let parent) = self { parent } else { nil }
    }

    /// The ordering of the group's tags.
    public var scope: OrderScope { .tags(parent) }
}

/// Every tag, depth first in the order people gave them: each tag, then its children, as
/// Things' tag manager shows them.
public struct GetTags: ArrangeIntent {
    public static let title = "Show Tags"

    /// Creates the intent; it takes no parameters.
    public init() {}

    public var isReadOnly: Bool { true }

    public func run(in context: IntentContext) throws -> TagsResult {
        TagsResult(tags: try context.transaction.tags())
    }
}

/// Creates a tag, at the bottom of its group unless a placement is given.
///
/// ```swift
/// let errand = try await CreateTag(name: "Errand").perform(in: environment).tag.id
/// try await CreateTag(name: "Shops", in: .children(of: errand)).perform(in: environment)
/// ```
public struct CreateTag: ArrangeIntent {
    public static let title = "Create Tag"

    /// The new tag's name; no two tags may share a name, ignoring case.
    public var name: String
    /// Where the tag goes among the tags of its group.
    public var placement: TagPlacement
    /// The tags it goes among: those at the top level, or a tag's children.
    public var group: TagGroup

    /// Creates a tag named `name` at `placement` among the tags of `group`.
    public init(name: String, placement: TagPlacement = .bottom, in group: TagGroup = .topLevel) {
        self.name = name
        self.placement = placement
        self.group = group
    }

    /// - Throws: `TitleError` for a name that breaks the rules of names or that another tag
    ///   has; ``IntentError/unknownTag(_:)`` for an unknown parent or anchor;
    ///   `OrderingError.tagUnderAnotherParent(anchor:parent:)` for an anchor of another group.
    public func run(in context: IntentContext) throws -> TagResult {
        let transaction = try context.writing(Self.title)
        let name = try Title.validated(name, as: .tagName)
        try context.checkNameIsFree(name, for: .tag(nil))
        let parent = try group.parent.map { try context.tag($0).id }
        try context.check(placement)
        let tag = Tag(id: Tag.ID(rawValue: context.environment.newID()), name: name, parent: parent, createdAt: context.now())
        let report = try context.ordering.add(tag, at: placement, in: transaction)
        try context.record(made: SyncChange.creation(of: tag, at: SyncPlace(report)))
        return TagResult(tag: try context.tag(tag.id))
    }
}

/// Gives a tag a new name.
public struct RenameTag: ArrangeIntent {
    public static let title = "Rename Tag"

    /// The tag.
    public var tag: Tag.ID
    /// The new name; no two tags may share a name, ignoring case.
    public var name: String

    /// Renames `tag` to `name`.
    public init(tag: Tag.ID, name: String) {
        self.tag = tag
        self.name = name
    }

    /// - Throws: ``IntentError/unknownTag(_:)``; `TitleError` for a name that breaks the rules
    ///   of names or that another tag has.
    public func run(in context: IntentContext) throws -> TagResult {
        let tag = try context.tag(self.tag)
        let name = try Title.validated(name, as: .tagName)
        guard name != tag.name else { return TagResult(tag: tag) }
        try context.checkNameIsFree(name, for: .tag(tag.id))
        try context.apply(TagRenamed(id: tag.id, name: name), action: Self.title)
        return TagResult(tag: try context.tag(tag.id))
    }
}

/// Moves a tag, with its children, to another place among its siblings, or under another
/// tag, or to the top level.
public struct MoveTag: ArrangeIntent {
    public static let title = "Move Tag"

    /// The tag to move.
    public var tag: Tag.ID
    /// Where it goes among the tags of its group.
    public var placement: TagPlacement
    /// The tags it goes among; `nil` keeps it among its siblings.
    public var group: TagGroup?

    /// Moves `tag` to `placement` among the tags of `group`; without a group, among its siblings.
    ///
    /// ```swift
    /// try await MoveTag(shops, to: .top).perform(in: environment)
    /// try await MoveTag(shops, to: .bottom, in: .topLevel).perform(in: environment)
    /// ```
    public init(_ tag: Tag.ID, to placement: TagPlacement, in group: TagGroup? = nil) {
        self.tag = tag
        self.placement = placement
        self.group = group
    }

    /// - Throws: ``IntentError/unknownTag(_:)`` for the tag, the parent or the anchor;
    ///   ``IntentError/tagCycle(tag:parent:)`` for a parent that is the tag or under it;
    ///   `OrderingError` for an anchor of another group or the tag itself.
    public func run(in context: IntentContext) throws -> TagPlacementResult {
        let transaction = try context.writing(Self.title)
        let tag = try context.tag(self.tag)
        let scope = try context.tagScope(moving: tag, into: group)
        try context.check(placement)
        let places = context.recordsHistory ? try ChangeRecord.places(of: [tag.entry], in: tag.scope, transaction: transaction) : []
        let report = try context.ordering.place([tag.id.entryID], at: placement.map(\.entryID), in: scope, visibility: .all, in: transaction)
        try context.recordPlacement(report, in: scope, from: places)
        return try context.tagResult(of: report)
    }
}

/// Moves the tags at some offsets among the tags of a group to before the tag at another, as
/// SwiftUI's `onMove` reports a drag in the tag manager.
public struct MoveTagsAtOffsets: ArrangeIntent {
    public static let title = "Move Tag"

    /// The tags among which the offsets count: those at the top level, or a tag's children.
    public var group: TagGroup
    /// The 0-based offsets of the tags to move.
    public var fromOffsets: IndexSet
    /// The offset to move them before, in the coordinates from before the move; the count of tags for the end.
    public var toOffset: Int
    /// The tags the view showed when the person dragged, in the order shown; the offsets index
    /// into it. `nil` counts the offsets among the group's tags as they are when the move runs.
    public var shown: [Tag.ID]?

    /// Moves the tags of `group` at `fromOffsets` to before the one at `toOffset`.
    public init(in group: TagGroup, fromOffsets: IndexSet, toOffset: Int, shown: [Tag.ID]? = nil) {
        self.group = group
        self.fromOffsets = fromOffsets
        self.toOffset = toOffset
        self.shown = shown
    }

    /// - Throws: ``IntentError/unknownTag(_:)`` for an unknown parent; `OrderingError` for
    ///   offsets out of range.
    public func run(in context: IntentContext) throws -> TagPlacementResult {
        let parent = try group.parent.map { try context.tag($0).id }
        return try context.tagResult(of: try moveAtOffsets(
            fromOffsets, to: toOffset, in: .tags(parent), visibility: .all, shown: shown?.map(\.entryID), context: context, action: Self.title))
    }
}

/// Deletes a tag with its children, and theirs. Undo puts them all back.
public struct DeleteTag: ArrangeIntent {
    public static let title = "Delete Tag"

    /// The tag.
    public var tag: Tag.ID

    /// Deletes `tag` and every tag under it.
    public init(tag: Tag.ID) {
        self.tag = tag
    }

    /// - Throws: ``IntentError/unknownTag(_:)``.
    public func run(in context: IntentContext) throws -> DeletedTagsResult {
        _ = try context.writing(Self.title)
        let tag = try context.tag(self.tag)
        let deleted = try TagDeleted.subtree(of: tag.id, in: context.transaction)
        try context.apply(TagDeleted(id: tag.id), action: Self.title)
        return DeletedTagsResult(tags: deleted)
    }
}

extension IntentContext {
    /// The ordering a tag moves into: its group's, or its siblings' without one.
    ///
    /// - Throws: ``IntentError/unknownTag(_:)`` for an unknown parent,
    ///   ``IntentError/tagCycle(tag:parent:)`` for a parent that is the tag or one of its descendants.
    func tagScope(moving tag: Tag, into group: TagGroup?) throws -> OrderScope {
        guard let group else { return tag.scope }
        guard let parent = try group.parent.map({ try self.tag($0) }) else { return .tags(nil) }
        if try TagMoved.isTag(parent.id, under: tag.id, in: transaction) {
            throw IntentError.tagCycle(tag: tag.name, parent: parent.name)
        }
        return .tags(parent.id)
    }

    /// Every tag, in order, and the rows an ordering of tags wrote.
    func tagResult(of report: OrderingReport) throws -> TagPlacementResult {
        TagPlacementResult(tags: try transaction.tags(), rowsWritten: report.rowsWritten, rowsRespread: report.rowsRespread)
    }
}

/// What tags go on or come off: some items, one list, or one area.
public enum TagTarget: Hashable, Sendable {
    /// These items.
    case items([Item.ID])
    /// The list itself; its items carry its tags too, in the filters.
    case list(ItemList.ID)
    /// The area itself; its lists' items carry its tags too, in the filters.
    case area(Area.ID)
}

/// Sets tags on items, on a list or on an area. A tag the thing has already stays as it is.
///
/// ```swift
/// try await AddTags([errand], to: .items([milk, eggs])).perform(in: environment)
/// try await AddTags([work], to: .area(office)).perform(in: environment)
/// ```
public struct AddTags: ArrangeIntent {
    public static let title = "Add Tags"

    /// The tags.
    public var tags: [Tag.ID]
    /// What they go on.
    public var target: TagTarget

    /// Sets `tags` on `target`.
    public init(_ tags: [Tag.ID], to target: TagTarget) {
        self.tags = tags
        self.target = target
    }

    /// - Throws: ``IntentError/noTagsNamed``, ``IntentError/unknownTag(_:)``,
    ///   ``IntentError/noItemsNamed``, ``IntentError/unknownItem(_:)``,
    ///   ``IntentError/unknownList(_:)``, ``IntentError/unknownArea(_:)``.
    public func run(in context: IntentContext) throws -> TaggedResult {
        try context.changeTags(tags, on: target, removing: false, action: Self.title)
    }
}

/// Takes tags off items, a list or an area. A tag the thing lacks is passed over.
public struct RemoveTags: ArrangeIntent {
    public static let title = "Remove Tags"

    /// The tags.
    public var tags: [Tag.ID]
    /// What they come off.
    public var target: TagTarget

    /// Takes `tags` off `target`.
    public init(_ tags: [Tag.ID], from target: TagTarget) {
        self.tags = tags
        self.target = target
    }

    /// - Throws: as ``AddTags``.
    public func run(in context: IntentContext) throws -> TaggedResult {
        try context.changeTags(tags, on: target, removing: true, action: Self.title)
    }
}

extension IntentContext {
    /// Sets `tags` on `target`, or takes them off, as one step of the history; the things as they are then.
    func changeTags(_ tags: [Tag.ID], on target: TagTarget, removing: Bool, action: String) throws -> TaggedResult {
        _ = try writing(action)
        guard !tags.isEmpty else { throw IntentError.noTagsNamed }
        let tags = try tags.map { try tag($0).id }
        switch target {
        case .items(let ids):
            let items = try distinctItems(ids).map(\.id)
            try apply(TagsChanged(tags: tags, items: items, removing: removing), action: action)
            return TaggedResult(items: try summaries(ofItems: items))
        case .list(let id):
            let list = try list(id)
            try apply(TagsChanged(tags: tags, lists: [list.id], removing: removing), action: action)
            return TaggedResult(lists: [try summary(of: try self.list(list.id))])
        case .area(let id):
            let area = try area(id)
            try apply(TagsChanged(tags: tags, areas: [area.id], removing: removing), action: action)
            return TaggedResult(areas: [try summary(of: try self.area(area.id))])
        }
    }
}

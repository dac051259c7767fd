import ArgumentParser
import ArrangeIntents
import ArrangeModel
import ArrangeOrdering
import ArrangeStore
import Foundation

// The tag manager: `tags`, and `tag create`, `rename`, `move`, `delete`. Tags are named by
// name, ignoring case, or by id.

struct TagsRequest: Request {
    static let name = "tags"
    static let summary = "Show every tag, each followed by its children, in their hand-made order."

    static let fields: [RequestField<Self>] = []

    var readsOnly: Bool { true }

    func intent(_ resolve: ReferenceResolver) -> GetTags { GetTags() }
}

struct TagsCommand: RequestCommand {
    typealias Form = TagsRequest
    static let configuration = CommandConfiguration.request(Form.self)
    @OptionGroup var shared: SharedOptions

    var request: TagsRequest { TagsRequest() }

    func text(for result: TagsResult, in session: CommandSession) -> String {
        TextFormat.tags(result.tags)
    }
}

/// The tags a request puts a tag among: the top level, or a tag's children.
enum TagParentChoice: Hashable, Sendable, RequestValue {
    /// Among the tags at the top level.
    case topLevel
    /// Among the children of the tag named.
    case tag(TagReference)

    static var jsonForm: String { "a tag name or id (a string), or null for the top level" }
    /// JSON's `null` puts a tag at the top level.
    static var null: TagParentChoice? { .topLevel }

    init(from decoder: any Decoder) throws {
        self = .tag(try TagReference(from: decoder))
    }

    /// The group of tags it names.
    func group(_ resolve: ReferenceResolver) throws -> TagGroup {
        switch self {
        case .topLevel: .topLevel
        case .tag(let parent): .children(of: try resolve.tag(parent).id)
        }
    }
}

struct CreateTagRequest: Request {
    static let name = "createTag"
    static let summary = "Create a tag, at the bottom of its parent's children (or of the top level) unless placed."
    var tagName: String = ""
    var parent: TagReference?
    var placement: TagPlacementReference?

    static let fields: [RequestField<Self>] = [
        .init("name", \.tagName, help: "The new tag's name; no two tags may share a name, ignoring case."),
        .init("parent", \.parent, help: "The tag it goes under, by name or id; the top level without it."),
        .init("placement", \.placement, help: "Where it goes among its siblings: top, bottom, before or after a tag, or at an offset."),
    ]

    func intent(_ resolve: ReferenceResolver) throws -> CreateTag {
        CreateTag(
            name: tagName, placement: try resolve.placement(placement ?? .bottom), in: TagGroup(try parent.map { try resolve.tag($0).id }))
    }
}

struct RenameTagRequest: Request {
    static let name = "renameTag"
    static let summary = "Give a tag a new name."
    var tag: TagReference = ""
    var newName: String = ""

    static let fields: [RequestField<Self>] = [
        .init("tag", \.tag, help: "The tag to rename, by name or id."),
        .init("name", \.newName, help: "The tag's new name."),
    ]

    func intent(_ resolve: ReferenceResolver) throws -> RenameTag {
        RenameTag(tag: try resolve.tag(tag).id, name: newName)
    }
}

struct MoveTagRequest: Request {
    static let name = "moveTag"
    static let summary = "Move a tag, with its children, among its siblings, under another tag, or to the top level."
    var tag: TagReference = ""
    var placement: TagPlacementReference = .bottom
    var parent: TagParentChoice?

    static let fields: [RequestField<Self>] = [
        .init("tag", \.tag, help: "The tag to move, by name or id."),
        .init("placement", \.placement, help: "Where it goes among its (new) siblings: top, bottom, before or after a tag, or at an offset."),
        .init("parent", \.parent, help: "The tag it goes under, by name or id; null for the top level. Without it, the tag keeps its parent."),
    ]

    func intent(_ resolve: ReferenceResolver) throws -> MoveTag {
        MoveTag(try resolve.tag(tag).id, to: try resolve.placement(placement), in: try parent?.group(resolve))
    }
}

struct MoveTagsAtOffsetsRequest: Request {
    static let name = "moveTag"
    static let summary = "Move the tags at some offsets among a tag's children to before the tag at another, as SwiftUI's onMove does."
    static let selector: String? = "fromOffsets"
    var fromOffsets: [Int] = []
    var toOffset: Int = 0
    var parent: TagReference?

    static let fields: [RequestField<Self>] = [
        .init("fromOffsets", \.fromOffsets, help: "The 0-based offsets of the tags to move."),
        .init("toOffset", \.toOffset, help: "The offset to move them before, counted before the move (the number of tags for the end)."),
        .init("parent", \.parent, help: "The tag whose children the offsets count, by name or id; the tags at the top level without it."),
    ]

    func intent(_ resolve: ReferenceResolver) throws -> MoveTagsAtOffsets {
        MoveTagsAtOffsets(
            in: TagGroup(try parent.map { try resolve.tag($0).id }), fromOffsets: try IndexSet(distinctOffsets: fromOffsets), toOffset: toOffset)
    }
}

struct DeleteTagRequest: Request {
    static let name = "deleteTag"
    static let summary = "Delete a tag with its children, and take them off everything (undo puts them back)."
    var tag: TagReference = ""

    static let fields: [RequestField<Self>] = [
        .init("tag", \.tag, help: "The tag to delete, by name or id; the tags under it go with it."),
    ]

    func intent(_ resolve: ReferenceResolver) throws -> DeleteTag {
        DeleteTag(tag: try resolve.tag(tag).id)
    }
}

/// The requests that set tags on things or take them off: `tag` and `untag`. Each names one
/// target: `items` (`#N` counting the open items of `from`), a `list`, or an `area`.
protocol TaggingRequest: Request<TaggedResult> {
    var tags: [TagReference] { get set }
    var items: [ItemReference]? { get set }
    var from: ListReference? { get set }
    var list: ListReference? { get set }
    var area: AreaReference? { get set }

    init(tags: [TagReference], items: [ItemReference]?, from: ListReference?, list: ListReference?, area: AreaReference?)

    /// The intent for the resolved tags and target.
    static func intent(_ tags: [Tag.ID], _ target: TagTarget) -> Intent
    /// What the command says it did: "Tagged".
    static var doneVerb: String { get }
}

extension TaggingRequest {
    static var fields: [RequestField<Self>] {
        [
            .init("tags", \.tags, help: "The tags, by name or id."),
            .init("items", \.items, help: "The items: #N, ids or id prefixes. Name items, a list or an area, one of them."),
            .init("from", \.from, help: "The list whose open items #N counts; the current list without it."),
            .init("list", \.list, help: "The list itself, by name or id; its items carry its tags in the filters."),
            .init("area", \.area, help: "The area itself, by name or id; its lists' items carry its tags in the filters."),
        ]
    }

    /// - Throws: `missingField` without a target, `invalidField` with more than one, or with
    ///   `from` but no items; the errors of the references.
    func intent(_ resolve: ReferenceResolver) throws -> Intent {
        if from != nil, items == nil { throw IntentFailure(code: "invalidField", message: "from says where #N counts items; name items with it.") }
        let target: TagTarget
        switch (items, list, area) {
        case (let items?, nil, nil): target = .items(try resolve.itemIDs(items, numberedIn: try resolve.numbering(from)))
        case (nil, let list?, nil): target = .list(try resolve.list(list).id)
        case (nil, nil, let area?): target = .area(try resolve.area(area).id)
        case (nil, nil, nil): throw IntentFailure(code: "missingField", message: "Name what the tags go on or come off: items, a list or an area.")
        default: throw IntentFailure(code: "invalidField", message: "Name one target: items, a list or an area, not several.")
        }
        return Self.intent(try resolve.tags(tags), target)
    }
}

struct TagThingsRequest: TaggingRequest {
    typealias Intent = AddTags
    static let name = "tag"
    static let summary = "Set tags on items, on a list or on an area; a tag already there stays."
    static let doneVerb = "Tagged"
    var tags: [TagReference] = []
    var items: [ItemReference]?
    var from: ListReference?
    var list: ListReference?
    var area: AreaReference?

    static func intent(_ tags: [Tag.ID], _ target: TagTarget) -> AddTags { AddTags(tags, to: target) }
}

struct UntagThingsRequest: TaggingRequest {
    typealias Intent = RemoveTags
    static let name = "untag"
    static let summary = "Take tags off items, a list or an area; a tag not there is passed over."
    static let doneVerb = "Untagged"
    var tags: [TagReference] = []
    var items: [ItemReference]?
    var from: ListReference?
    var list: ListReference?
    var area: AreaReference?

    static func intent(_ tags: [Tag.ID], _ target: TagTarget) -> RemoveTags { RemoveTags(tags, from: target) }
}

/// The arguments of `tag add` and `tag remove`: tags, then items as `#N`, or `--items`, `--list` or `--area`.
struct TaggingArguments<Form: TaggingRequest>: ParsableArguments {
    @Argument(help: ArgumentHelp("The tags, by name or id, then the items as #N (of --from, else the current list).", valueName: "tag-or-#N"))
    var words: [String]
    @Option(name: .customLong("items"), parsing: .upToNextOption, help: ArgumentHelp("Items by id or id prefix, or #N.", valueName: "item"))
    var itemReferences: [ItemReference] = []
    @Option(help: ArgumentHelp(Form.help(\.from), valueName: "list")) var from: ListReference?
    @Option(help: ArgumentHelp(Form.help(\.list), valueName: "list")) var list: ListReference?
    @Option(help: ArgumentHelp(Form.help(\.area), valueName: "area")) var area: AreaReference?

    /// The request: the words before the first `#N` are tags, the rest items.
    var request: Form {
        let split = words.firstIndex { $0.hasPrefix("#") } ?? words.endIndex
        let items = words[split...].map(ItemReference.init) + itemReferences
        return Form(tags: words[..<split].map(TagReference.init), items: items.isEmpty ? nil : items, from: from, list: list, area: area)
    }
}

/// What `tag add` and `tag remove` say they did: "Tagged "Milk", "Eggs"."
private func taggedText(_ verb: String, _ result: TaggedResult) -> String {
    let named = (result.lists.map(\.name) + result.areas.map(\.name)).map(TextFormat.quoted)
    return "\(verb) \(result.items.isEmpty ? named.joined(separator: ", ") : TextFormat.titles(result.items))."
}

struct TagAddCommand: RequestCommand {
    typealias Form = TagThingsRequest
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: Form.summary,
        discussion: """
            Examples:
              arrange tag add Errand '#1' '#3'
              arrange tag add Errand Home --items 3f2a91c0
              arrange tag add Work --area Office
            """)
    @OptionGroup var shared: SharedOptions
    @OptionGroup var arguments: TaggingArguments<Form>

    var request: Form { arguments.request }

    func text(for result: TaggedResult, in session: CommandSession) -> String { taggedText(Form.doneVerb, result) }
}

struct TagRemoveCommand: RequestCommand {
    typealias Form = UntagThingsRequest
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: Form.summary, discussion: "Example: arrange tag remove Errand '#1' (or --list LIST, --area AREA)")
    @OptionGroup var shared: SharedOptions
    @OptionGroup var arguments: TaggingArguments<Form>

    var request: Form { arguments.request }

    func text(for result: TaggedResult, in session: CommandSession) -> String { taggedText(Form.doneVerb, result) }
}

struct TagCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tag", abstract: "Create, rename, move and delete tags, which nest; `arrange tags` shows them.",
        discussion: """
            Tags are named by name, ignoring case, or by id.

            Examples:
              arrange tag create Errand
              arrange tag create Shops --parent Errand
              arrange tag move Shops --top --top-level
              arrange tag move --from-offsets 2 --to-offset 0 --parent Errand   (SwiftUI's onMove)
              arrange tag delete Errand                                         (with Shops)
              arrange tag add Errand '#1' '#2'; arrange tag add Work --area Office
              arrange tag remove Errand '#1'
            """,
        subcommands: [TagCreateCommand.self, TagRenameCommand.self, TagMoveCommand.self, TagDeleteCommand.self, TagAddCommand.self, TagRemoveCommand.self])
}

struct TagCreateCommand: RequestCommand {
    typealias Form = CreateTagRequest
    static let configuration = CommandConfiguration(commandName: "create", abstract: Form.summary, discussion: "Example: arrange tag create Shops --parent Errand --top")
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp(Form.help(\.tagName), valueName: "name")) var name: [String]
    @Option(help: ArgumentHelp(Form.help(\.parent), valueName: "tag")) var parent: TagReference?
    @OptionGroup(title: "Placement") var placement: PlacementOptions<TagReference>

    var request: CreateTagRequest { CreateTagRequest(tagName: name.joined(separator: " "), parent: parent, placement: placement.reference) }

    func text(for result: TagResult, in session: CommandSession) -> String {
        "Created the tag \(TextFormat.quoted(result.tag.name))."
    }
}

struct TagRenameCommand: RequestCommand {
    typealias Form = RenameTagRequest
    static let configuration = CommandConfiguration(commandName: "rename", abstract: Form.summary, discussion: "Example: arrange tag rename Errand Errands")
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp(Form.help(\.tag), valueName: "tag")) var tag: TagReference
    @Argument(help: ArgumentHelp(Form.help(\.newName), valueName: "new-name")) var name: [String]

    var request: RenameTagRequest { RenameTagRequest(tag: tag, newName: name.joined(separator: " ")) }

    func text(for result: TagResult, in session: CommandSession) -> String {
        "Renamed the tag to \(TextFormat.quoted(result.tag.name))."
    }
}

struct TagMoveCommand: SessionCommand {
    static let configuration = CommandConfiguration(
        commandName: "move", abstract: MoveTagRequest.summary,
        discussion: """
            Examples:
              arrange tag move Shops --top
              arrange tag move Shops --bottom --parent Home        (under another tag)
              arrange tag move Shops --top --top-level             (out of its parent)
              arrange tag move --from-offsets 0 --to-offset 2      (SwiftUI's onMove, at the top level)
            """)
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp(MoveTagRequest.help(\.tag), valueName: "tag")) var tag: TagReference?
    @OptionGroup(title: "Placement") var placement: PlacementOptions<TagReference>
    @Option(help: ArgumentHelp("The tag it goes under, by name or id; with --from-offsets, the tag whose children the offsets count.", valueName: "tag"))
    var parent: TagReference?
    @Flag(name: .customLong("top-level"), help: ArgumentHelp("Move the tag out of its parent, among the tags at the top level."))
    var topLevel = false
    @Option(name: .customLong("from-offsets"), parsing: .upToNextOption, help: ArgumentHelp(MoveTagsAtOffsetsRequest.help(\.fromOffsets), valueName: "offset"))
    var fromOffsets: [Int] = []
    @Option(name: .customLong("to-offset"), help: ArgumentHelp(MoveTagsAtOffsetsRequest.help(\.toOffset), valueName: "offset"))
    var toOffset: Int?

    func validate() throws {
        try validateMove(
            named: tag != nil, placed: placement.reference != nil, fromOffsets: !fromOffsets.isEmpty, toOffset: toOffset != nil,
            what: "tag", placements: "--top, --bottom, --before TAG, --after TAG or --offset N")
        if parent != nil, topLevel { throw ValidationError("Give --parent TAG or --top-level, not both.") }
        if topLevel, toOffset != nil { throw ValidationError("--top-level moves one named tag; offsets count the tags at the top level without --parent.") }
    }

    /// The request the arguments make: a move by name and placement, or by offsets.
    var request: any Request<TagPlacementResult> {
        get throws {
            if let tag, let placement = placement.reference {
                return MoveTagRequest(tag: tag, placement: placement, parent: topLevel ? .topLevel : parent.map(TagParentChoice.tag))
            }
            if let toOffset { return MoveTagsAtOffsetsRequest(fromOffsets: fromOffsets, toOffset: toOffset, parent: parent) }
            throw ValidationError("Name the tag to move and say where, or give --from-offsets and --to-offset.")
        }
    }

    func run(in session: CommandSession) async throws {
        let result = try await request.perform(in: session).result
        if shared.json {
            try session.printJSON(result)
        } else {
            session.console.print((result.rowsWritten == 0 ? "Nothing to move; the tags:" : "Moved. The tags:") + "\n" + TextFormat.tags(result.tags))
        }
    }
}

struct TagDeleteCommand: RequestCommand {
    typealias Form = DeleteTagRequest
    static let configuration = CommandConfiguration(commandName: "delete", abstract: Form.summary, discussion: "Example: arrange tag delete Errand")
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp(Form.help(\.tag), valueName: "tag")) var tag: TagReference

    var request: DeleteTagRequest { DeleteTagRequest(tag: tag) }

    func text(for result: DeletedTagsResult, in session: CommandSession) -> String {
        guard let tag = result.tags.first else { return "Deleted nothing." }
        let children = result.tags.dropFirst().map { TextFormat.quoted($0.name) }
        return "Deleted the tag \(TextFormat.quoted(tag.name))" + (children.isEmpty ? "." : ", with \(children.joined(separator: ", ")).")
    }
}

/// The `--tag` option of the views: repeated, an item must carry every tag given.
struct TagFilterOption: ParsableArguments {
    @Option(name: .customLong("tag"), help: ArgumentHelp(Help.tagFilter, valueName: "tag")) var tags: [TagReference] = []

    /// The tags as a request's `tags` field holds them: `nil` for none.
    var filter: [TagReference]? { tags.isEmpty ? nil : tags }
}

extension Help {
    /// What the `tags` field of a view, and its `--tag` option, do.
    static let tagFilter =
        "Only the items that carry every one of these tags, by name or id: on themselves, on their list or its area, the tag itself or one under it."
}

extension RequestCatalogue {
    /// The requests of tags, in the order help lists them.
    static let tagRequests: [any Request.Type] = [
        TagsRequest.self, CreateTagRequest.self, RenameTagRequest.self, MoveTagRequest.self, MoveTagsAtOffsetsRequest.self, DeleteTagRequest.self,
        TagThingsRequest.self, UntagThingsRequest.self,
    ]
    /// The subcommands of `arrange` that make these requests, in the order help lists them.
    static let tagCommands: [any ParsableCommand.Type] = [TagsCommand.self, TagCommand.self]
}

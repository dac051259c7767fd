import ArgumentParser
import ArrangeIntents
import ArrangeModel
import ArrangeOrdering
import ArrangeStore
import Foundation

// The areas of the sidebar: `areas`, and `area create`, `rename`, `move`, `delete`.

struct AreasRequest: Request {
    static let name = "areas"
    static let summary = "Show every area, in its hand-made order, with its lists."

    static let fields: [RequestField<Self>] = []

    var readsOnly: Bool { true }

    func intent(_ resolve: ReferenceResolver) -> GetAreas { GetAreas() }
}

struct AreasCommand: RequestCommand {
    typealias Form = AreasRequest
    static let configuration = CommandConfiguration.request(Form.self)
    @OptionGroup var shared: SharedOptions

    var request: AreasRequest { AreasRequest() }

    func text(for result: AreasResult, in session: CommandSession) async throws -> String {
        TextFormat.areas(result.areas, defaultList: try await session.defaultListID())
    }
}

struct CreateAreaRequest: Request {
    static let name = "createArea"
    static let summary = "Create an empty area, at the bottom of the areas unless placed."
    var areaName: String = ""
    var placement: AreaPlacementReference?

    static let fields: [RequestField<Self>] = [
        .init("name", \.areaName, help: "The new area's name; no two areas may share a name, ignoring case."),
        .init("placement", \.placement, help: "Where it goes among the areas: top, bottom, before or after an area, or at an offset."),
    ]

    func intent(_ resolve: ReferenceResolver) throws -> CreateArea {
        CreateArea(name: areaName, placement: try resolve.placement(placement ?? .bottom))
    }
}

struct RenameAreaRequest: Request {
    static let name = "renameArea"
    static let summary = "Give an area a new name."
    var area: AreaReference = ""
    var newName: String = ""

    static let fields: [RequestField<Self>] = [
        .init("area", \.area, help: "The area to rename, by name or id."),
        .init("name", \.newName, help: "The area's new name."),
    ]

    func intent(_ resolve: ReferenceResolver) throws -> RenameArea {
        RenameArea(area: try resolve.area(area).id, name: newName)
    }
}

struct MoveAreaRequest: Request {
    static let name = "moveArea"
    static let summary = "Move an area, with its lists, to the top, the bottom, next to another area or to an offset among the areas."
    var area: AreaReference = ""
    var placement: AreaPlacementReference = .bottom

    static let fields: [RequestField<Self>] = [
        .init("area", \.area, help: "The area to move, by name or id."),
        .init("placement", \.placement, help: "Where it goes: top, bottom, before or after an area, or at an offset."),
    ]

    func intent(_ resolve: ReferenceResolver) throws -> MoveArea {
        MoveArea(try resolve.area(area).id, to: try resolve.placement(placement))
    }
}

struct MoveAreasAtOffsetsRequest: Request {
    static let name = "moveArea"
    static let summary = "Move the areas at some offsets to before the area at another, as SwiftUI's onMove does."
    static let selector: String? = "fromOffsets"
    var fromOffsets: [Int] = []
    var toOffset: Int = 0

    static let fields: [RequestField<Self>] = [
        .init("fromOffsets", \.fromOffsets, help: "The 0-based offsets of the areas to move."),
        .init("toOffset", \.toOffset, help: "The offset to move them before, counted before the move (the number of areas for the end)."),
    ]

    func intent(_ resolve: ReferenceResolver) throws -> MoveAreasAtOffsets {
        MoveAreasAtOffsets(fromOffsets: try IndexSet(distinctOffsets: fromOffsets), toOffset: toOffset)
    }
}

struct DeleteAreaRequest: Request {
    static let name = "deleteArea"
    static let summary = "Delete an area and keep its lists, which move out of it (undo puts them back)."
    var area: AreaReference = ""

    static let fields: [RequestField<Self>] = [
        .init("area", \.area, help: "The area to delete, by name or id; its lists stay, at the bottom of the lists in no area."),
    ]

    func intent(_ resolve: ReferenceResolver) throws -> DeleteArea {
        DeleteArea(area: try resolve.area(area).id)
    }
}

struct AreaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "area", abstract: "Create, rename, move and delete the areas that group lists in the sidebar; `arrange areas` shows them.",
        discussion: """
            Areas are named by name or by id. A list goes into an area with `arrange move-list LIST --area AREA`.

            Examples:
              arrange area create Work
              arrange area move Home --before Work
              arrange area move --from-offsets 2 --to-offset 0   (SwiftUI's onMove)
              arrange area delete Work                            (its lists stay)
            """,
        subcommands: [AreaCreateCommand.self, AreaRenameCommand.self, AreaMoveCommand.self, AreaDeleteCommand.self])
}

struct AreaCreateCommand: RequestCommand {
    typealias Form = CreateAreaRequest
    static let configuration = CommandConfiguration(commandName: "create", abstract: Form.summary, discussion: "Example: arrange area create Home --top")
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp(Form.help(\.areaName), valueName: "name")) var name: [String]
    @OptionGroup(title: "Placement") var placement: PlacementOptions<AreaReference>

    var request: CreateAreaRequest { CreateAreaRequest(areaName: name.joined(separator: " "), placement: placement.reference) }

    func text(for result: AreaResult, in session: CommandSession) -> String {
        "Created the area \(TextFormat.quoted(result.area.name))."
    }
}

struct AreaRenameCommand: RequestCommand {
    typealias Form = RenameAreaRequest
    static let configuration = CommandConfiguration(commandName: "rename", abstract: Form.summary, discussion: "Example: arrange area rename Work Office")
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp(Form.help(\.area), valueName: "area")) var area: AreaReference
    @Argument(help: ArgumentHelp(Form.help(\.newName), valueName: "new-name")) var name: [String]

    var request: RenameAreaRequest { RenameAreaRequest(area: area, newName: name.joined(separator: " ")) }

    func text(for result: AreaResult, in session: CommandSession) -> String {
        "Renamed the area to \(TextFormat.quoted(result.area.name))."
    }
}

struct AreaMoveCommand: SessionCommand {
    static let configuration = CommandConfiguration(
        commandName: "move", abstract: MoveAreaRequest.summary,
        discussion: """
            Examples:
              arrange area move Home --top
              arrange area move --from-offsets 0 --to-offset 2      (SwiftUI's onMove)
            """)
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp(MoveAreaRequest.help(\.area), valueName: "area")) var area: AreaReference?
    @OptionGroup(title: "Placement") var placement: PlacementOptions<AreaReference>
    @Option(name: .customLong("from-offsets"), parsing: .upToNextOption, help: ArgumentHelp(MoveAreasAtOffsetsRequest.help(\.fromOffsets), valueName: "offset"))
    var fromOffsets: [Int] = []
    @Option(name: .customLong("to-offset"), help: ArgumentHelp(MoveAreasAtOffsetsRequest.help(\.toOffset), valueName: "offset"))
    var toOffset: Int?

    func validate() throws {
        try validateMove(
            named: area != nil, placed: placement.reference != nil, fromOffsets: !fromOffsets.isEmpty, toOffset: toOffset != nil,
            what: "area", placements: "--top, --bottom, --before AREA, --after AREA or --offset N")
    }

    /// The request the arguments make: a move by name and placement, or by offsets.
    var request: any Request<AreaPlacementResult> {
        get throws {
            if let area, let placement = placement.reference { return MoveAreaRequest(area: area, placement: placement) }
            if let toOffset { return MoveAreasAtOffsetsRequest(fromOffsets: fromOffsets, toOffset: toOffset) }
            throw ValidationError("Name the area to move and say where, or give --from-offsets and --to-offset.")
        }
    }

    func run(in session: CommandSession) async throws {
        let result = try await request.perform(in: session).result
        if shared.json {
            try session.printJSON(result)
        } else {
            let written = result.rowsWritten == 0 ? "Nothing to move; the areas:" : "Moved. The areas:"
            session.console.print(written + "\n" + TextFormat.areas(result.areas, defaultList: try await session.defaultListID()))
        }
    }
}

struct AreaDeleteCommand: RequestCommand {
    typealias Form = DeleteAreaRequest
    static let configuration = CommandConfiguration(commandName: "delete", abstract: Form.summary, discussion: "Example: arrange area delete Work")
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp(Form.help(\.area), valueName: "area")) var area: AreaReference

    var request: DeleteAreaRequest { DeleteAreaRequest(area: area) }

    func text(for result: DeletedAreaResult, in session: CommandSession) -> String {
        let lists = result.movedLists.map { TextFormat.quoted($0.name) }
        return "Deleted the area \(TextFormat.quoted(result.area.name))" + (lists.isEmpty ? "." : "; its lists \(lists.joined(separator: ", ")) are now in no area.")
    }
}

extension RequestCatalogue {
    /// The requests of areas, in the order help lists them.
    static let areaRequests: [any Request.Type] = [
        AreasRequest.self, CreateAreaRequest.self, RenameAreaRequest.self, MoveAreaRequest.self, MoveAreasAtOffsetsRequest.self,
        DeleteAreaRequest.self,
    ]
    /// The subcommands of `arrange` that make these requests, in the order help lists them.
    static let areaCommands: [any ParsableCommand.Type] = [AreasCommand.self, AreaCommand.self]
}

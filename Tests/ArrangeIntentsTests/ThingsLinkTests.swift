import ArrangeIntents
import ArrangeModel
import ArrangeOrdering
import ArrangeStore
import Foundation
import Synchronization
import Testing

/// A store holding what the links of the table name, with its link token made.
///
/// It is Friday 2027-01-15, 08:00 UTC. The store holds the Inbox (the default list); the list
/// Groceries with its heading Dairy, the to-do Existing (notes "Old", deadline 2027-01-20, tag
/// Errand, checklist "one") and the to-do Imported, whose Things id is ``importedToDo``; the
/// area Home with its list Chores; the list Imported Project, whose Things id is
/// ``importedProject``; and the tag Errand.
struct LinkFixture {
    let repository = InMemoryItemRepository()
    let environment: IntentEnvironment
    let token: String
    let groceries: ItemList.ID
    let dairy: Heading.ID
    let home: Area.ID
    let existing: Item.ID

    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let importedToDo = "2Kx8GvXoSFvJPNbcmQ6Eaz"
    static let importedProject = "7YhQmT3cVbN2pLkWs9RfXe"

    init() async throws {
        let ticks = Mutex(0)
        environment = try IntentEnvironment(
            repository: repository, random: SeededRandomNumberGenerator(seed: 5),
            clock: { LinkFixture.start.addingTimeInterval(Double(ticks.withLock { $0 += 1; return $0 })) }, timeZone: .gmt)
        let environment = environment
        func run<Intent: ArrangeIntent>(_ intent: Intent) async throws -> Intent.Result { try await intent.perform(in: environment) }
        let inbox = ItemList(id: ItemList.ID(), name: "Inbox", createdAt: LinkFixture.start)
        try await repository.write { transaction in
            try transaction.insert(inbox)
            try transaction.setDefaultListID(inbox.id)
        }
        groceries = try await run(CreateList(name: "Groceries")).list.id
        dairy = try await run(CreateHeading(title: "Dairy", in: groceries)).heading.id
        home = try await run(CreateArea(name: "Home")).area.id
        _ = try await run(CreateList(name: "Chores", in: .area(home)))
        let errand = try await run(CreateTag(name: "Errand")).tag.id
        existing = try await run(AddItem(title: "Existing", list: groceries, notes: "Old", deadline: try Day(parsing: "2027-01-20"))).items[0].id
        _ = try await run(AddTags([errand], to: .items([existing])))
        _ = try await run(AddChecklistItem(title: "one", to: existing))
        let groceries = groceries
        try await repository.write { transaction in
            try transaction.insert(ItemList(id: ThingsID(LinkFixture.importedProject).list, name: "Imported Project", createdAt: LinkFixture.start, sortIndex: 1 << 40))
            try transaction.insert(Item(id: ThingsID(LinkFixture.importedToDo).item, listID: groceries, title: "Imported", sortIndex: 1 << 40, createdAt: LinkFixture.start))
        }
        token = try await run(MakeLinkToken()).token
    }

    /// The link `template` with its placeholders filled: `TOKEN`, `EXISTING`, `GROCERIES`, `DAIRY`, `HOME`.
    func link(_ template: String) -> String {
        template.replacingOccurrences(of: "TOKEN", with: token).replacingOccurrences(of: "EXISTING", with: existing.text)
            .replacingOccurrences(of: "GROCERIES", with: groceries.text).replacingOccurrences(of: "DAIRY", with: dairy.text)
            .replacingOccurrences(of: "HOME", with: home.text)
    }

    /// Reads `template`'s link and opens it.
    @discardableResult
    func open(_ template: String) async throws -> ThingsLinkAnswer {
        try await OpenThingsLink(try ThingsLink(link(template))).perform(in: environment)
    }

    /// The store as lines, one for each list, area, heading, tag and item, with the fields that
    /// are not at their defaults.
    func lines() async throws -> Set<String> {
        try await repository.read { transaction in
            var lines = Set<String>()
            let tags = Dictionary(uniqueKeysWithValues: try transaction.tags().map { ($0.id, $0.name) })
            func names(_ ids: Set<ArrangeModel.Tag.ID>) -> String { ids.compactMap { tags[$0] }.sorted().joined(separator: ",") }
            let areas = Dictionary(uniqueKeysWithValues: try transaction.areas().map { ($0.id, $0.name) })
            lines.formUnion(areas.values.map { "area \($0)" })
            lines.formUnion(tags.values.map { "tag \($0)" })
            for list in try transaction.lists() {
                var line = "list \(list.name)"
                if let area = list.area { line += " area=\(areas[area] ?? "?")" }
                line += Self.describe(list.when)
                if let deadline = list.deadline { line += " deadline=\(deadline)" }
                if !list.tags.isEmpty { line += " tags=\(names(list.tags))" }
                if list.completedAt != nil { line += list.isCanceled ? " canceled" : " completed" }
                if !list.notes.isEmpty { line += " notes=\(list.notes.replacingOccurrences(of: "\n", with: "\\n"))" }
                if list.createdAt < LinkFixture.start { line += " created@" + list.createdAt.formatted(.iso8601) }
                lines.insert(line)
                let headings = Dictionary(uniqueKeysWithValues: try transaction.headings(in: list.id).map { ($0.id, $0.title) })
                lines.formUnion(headings.values.map { "heading \(list.name)/\($0)" })
                let items = try transaction.items(in: list.id, visibility: .all, offset: 0, limit: .max)
                let checklists = try transaction.checklists(of: items.map(\.id))
                for item in items {
                    var line = "to-do \(item.title) in \(list.name)" + (item.heading.map { "/" + (headings[$0] ?? "?") } ?? "")
                    line += Self.describe(item.when)
                    if let reminder = item.reminder { line += " reminder=\(reminder)" }
                    if let deadline = item.deadline { line += " deadline=\(deadline)" }
                    if !item.tags.isEmpty { line += " tags=\(names(item.tags))" }
                    if !item.notes.isEmpty { line += " notes=\(item.notes.replacingOccurrences(of: "\n", with: "\\n"))" }
                    if let checklist = checklists[item.id] {
                        line += " checklist=" + checklist.map { $0.title + ($0.isCanceled ? "✗" : $0.isCompleted ? "✓" : "") }.joined(separator: ",")
                    }
                    if let done = item.completedAt {
                        line += item.isCanceled ? " canceled" : " completed"
                        if done < LinkFixture.start { line += "@" + done.formatted(.iso8601) }
                    }
                    if item.createdAt < LinkFixture.start { line += " created@" + item.createdAt.formatted(.iso8601) }
                    lines.insert(line)
                }
            }
            return lines
        }
    }

    static func describe(_ when: When) -> String {
        switch when {
        case .anytime: ""
        case .someday: " when=someday"
        case .on(let day, let evening): " when=\(day)" + (evening ? " evening" : "")
        }
    }
}

/// One link of the table and what it does: the lines of the store it adds or changes, or the
/// error it fails with, leaving the store as it was.
struct LinkCase: CustomTestStringConvertible, Sendable {
    enum Outcome: Sendable {
        case changes(Set<String>)
        case fails(ThingsLinkError)
        /// Fails with an error of another type, whose message holds this text.
        case failsSaying(String)
    }

    let link: String
    let outcome: Outcome

    init(_ link: String, _ lines: String...) {
        self.link = link
        self.outcome = .changes(Set(lines))
    }

    init(_ link: String, fails error: ThingsLinkError) {
        self.link = link
        self.outcome = .fails(error)
    }

    init(_ link: String, failsSaying text: String) {
        self.link = link
        self.outcome = .failsSaying(text)
    }

    var testDescription: String { link.count > 100 ? String(link.prefix(100)) + "…" : link }
}

/// The table: links written by hand from Things' documentation of its URL scheme, and links
/// whose `data` is JSON in `ThingsJSONCoder`'s documented format.
let linkTable: [LinkCase] = [
    // add: titles, and the percent-encoding of what a value holds.
    LinkCase("things:///add?title=Milk", "to-do Milk in Inbox"),
    LinkCase("arrange:///add?title=Milk", "to-do Milk in Inbox"),
    LinkCase("THINGS:///add?title=Milk", "to-do Milk in Inbox"),
    LinkCase("things:///add?title=Milk%20%26%20Eggs", "to-do Milk & Eggs in Inbox"),
    LinkCase("things:///add?title=1%2B1%3D2", "to-do 1+1=2 in Inbox"),
    LinkCase("things:///add?title=1+1", "to-do 1+1 in Inbox"),
    LinkCase("things:///add?title=100%25%20sure", "to-do 100% sure in Inbox"),
    LinkCase("things:///add?title=Caf%C3%A9%20%F0%9F%A5%9B", "to-do Café 🥛 in Inbox"),
    LinkCase("things:///add?title=Milk&notes=Line%201%0ALine%202", "to-do Milk in Inbox notes=Line 1\\nLine 2"),
    LinkCase("things:///add?titles=Milk%0AEggs%0A%0ABread", "to-do Milk in Inbox", "to-do Eggs in Inbox", "to-do Bread in Inbox"),
    LinkCase("things:///add?titles=A%0D%0A%20%20%0D%0AB&title=Ignored", "to-do A in Inbox", "to-do B in Inbox"),
    // add: every form of when, with a reminder after @.
    LinkCase("things:///add?title=Milk&when=today", "to-do Milk in Inbox when=2027-01-15"),
    LinkCase("things:///add?title=Milk&when=tomorrow", "to-do Milk in Inbox when=2027-01-16"),
    LinkCase("things:///add?title=Milk&when=evening", "to-do Milk in Inbox when=2027-01-15 evening"),
    LinkCase("things:///add?title=Milk&when=anytime", "to-do Milk in Inbox"),
    LinkCase("things:///add?title=Milk&when=someday", "to-do Milk in Inbox when=someday"),
    LinkCase("things:///add?title=Milk&when=2027-03-01", "to-do Milk in Inbox when=2027-03-01"),
    LinkCase("things:///add?title=Milk&when=next%20tuesday", "to-do Milk in Inbox when=2027-01-19"),
    LinkCase("things:///add?title=Milk&when=in%203%20days", "to-do Milk in Inbox when=2027-01-18"),
    LinkCase("things:///add?title=Milk&when=this%20weekend", "to-do Milk in Inbox when=2027-01-16"),
    LinkCase("things:///add?title=Milk&when=2027-02-01@9:30", "to-do Milk in Inbox when=2027-02-01 reminder=09:30"),
    LinkCase("things:///add?title=Milk&when=tomorrow@6pm", "to-do Milk in Inbox when=2027-01-16 reminder=18:00"),
    LinkCase("things:///add?title=Milk&when=today@21:30", "to-do Milk in Inbox when=2027-01-15 reminder=21:30"),
    LinkCase("things:///add?title=Milk&when=evening@9:30PM", "to-do Milk in Inbox when=2027-01-15 evening reminder=21:30"),
    LinkCase("things:///add?title=Milk&deadline=2027-04-15", "to-do Milk in Inbox deadline=2027-04-15"),
    LinkCase("things:///add?title=Milk&deadline=friday", "to-do Milk in Inbox deadline=2027-01-22"),
    // add: tags, checklists, lists and headings.
    LinkCase("things:///add?title=Milk&tags=Errand", "to-do Milk in Inbox tags=Errand"),
    LinkCase("things:///add?title=Milk&tags=errand,%20New%20Tag,", "to-do Milk in Inbox tags=Errand,New Tag", "tag New Tag"),
    LinkCase("things:///add?title=Milk&checklist-items=One%0ATwo%0A%0AThree", "to-do Milk in Inbox checklist=One,Two,Three"),
    LinkCase("things:///add?title=Milk&list=Groceries", "to-do Milk in Groceries"),
    LinkCase("things:///add?title=Milk&list=groceries", "to-do Milk in Groceries"),
    LinkCase("things:///add?title=Milk&list-id=GROCERIES&list=Chores", "to-do Milk in Groceries"),
    LinkCase("things:///add?title=Milk&list-id=\(LinkFixture.importedProject)", "to-do Milk in Imported Project"),
    LinkCase("things:///add?title=Milk&list=Groceries&heading=Dairy", "to-do Milk in Groceries/Dairy"),
    LinkCase("things:///add?title=Milk&list=Groceries&heading-id=DAIRY&heading=Bakery", "to-do Milk in Groceries/Dairy"),
    LinkCase("things:///add?title=Bread&list=Groceries&heading=Bakery", "to-do Bread in Groceries/Bakery", "heading Groceries/Bakery"),
    // add: done, and the parameters accepted and ignored.
    LinkCase("things:///add?title=Milk&completed=true", "to-do Milk in Inbox completed"),
    LinkCase("things:///add?title=Milk&canceled=true", "to-do Milk in Inbox canceled"),
    LinkCase("things:///add?title=Milk&completed=true&canceled=true", "to-do Milk in Inbox canceled"),
    LinkCase("things:///add?title=Milk&completed=false", "to-do Milk in Inbox"),
    LinkCase("things:///add?title=Milk&completed=true&completion-date=2026-12-24T10:00:00Z", "to-do Milk in Inbox completed@2026-12-24T10:00:00Z"),
    LinkCase("things:///add?title=Milk&completion-date=2026-12-24T10:00:00Z", "to-do Milk in Inbox"),
    LinkCase("things:///add?title=Milk&creation-date=2026-01-01T09:00:00%2B01:00", "to-do Milk in Inbox created@2026-01-01T08:00:00Z"),
    LinkCase("things:///add?title=Milk&creation-date=2026-01-01", "to-do Milk in Inbox created@2026-01-01T00:00:00Z"),
    LinkCase("things:///add?title=Milk&reveal=true&show-quick-entry=true&x-success=drafts://x-callback-url/ok", "to-do Milk in Inbox"),
    LinkCase("things:///add?title=Milk&colour=red", "to-do Milk in Inbox"),
    // add-project.
    LinkCase("things:///add-project?title=Trip", "list Trip"),
    LinkCase("things:///add-project?title=Trip&area=home", "list Trip area=Home"),
    LinkCase("things:///add-project?title=Trip&area-id=HOME", "list Trip area=Home"),
    LinkCase("things:///add-project?title=Trip&to-dos=Passport%0A%0ATickets", "list Trip", "to-do Passport in Trip", "to-do Tickets in Trip"),
    LinkCase("things:///add-project?title=Trip&when=tomorrow&deadline=2027-02-01", "list Trip when=2027-01-16 deadline=2027-02-01"),
    LinkCase("things:///add-project?title=Trip&when=someday", "list Trip when=someday"),
    LinkCase("things:///add-project?title=Trip&notes=Bring%20sun%20cream%0Aand%20hats", "list Trip notes=Bring sun cream\\nand hats"),
    LinkCase("things:///add-project?title=Trip&tags=Errand,Travel", "list Trip tags=Errand,Travel", "tag Travel"),
    LinkCase("things:///add-project?title=Trip&to-dos=Passport&completed=true", "list Trip completed", "to-do Passport in Trip completed"),
    LinkCase("things:///add-project?title=Trip&canceled=true&completion-date=2026-12-01", "list Trip canceled"),
    LinkCase("things:///add-project?title=Trip&creation-date=2026-06-01T12:00:00Z", "list Trip created@2026-06-01T12:00:00Z"),
    // update: each field of the to-do Existing.
    LinkCase("things:///update?id=EXISTING&auth-token=TOKEN&title=Renamed", "to-do Renamed in Groceries deadline=2027-01-20 tags=Errand notes=Old checklist=one"),
    LinkCase("things:///update?id=EXISTING&auth-token=TOKEN&notes=New", "to-do Existing in Groceries deadline=2027-01-20 tags=Errand notes=New checklist=one"),
    LinkCase("things:///update?id=EXISTING&auth-token=TOKEN&notes=", "to-do Existing in Groceries deadline=2027-01-20 tags=Errand checklist=one"),
    LinkCase(
        "things:///update?id=EXISTING&auth-token=TOKEN&prepend-notes=Before&append-notes=After",
        "to-do Existing in Groceries deadline=2027-01-20 tags=Errand notes=Before\\nOld\\nAfter checklist=one"),
    LinkCase("things:///update?id=EXISTING&auth-token=TOKEN&when=tomorrow@8:15", "to-do Existing in Groceries when=2027-01-16 reminder=08:15 deadline=2027-01-20 tags=Errand notes=Old checklist=one"),
    LinkCase("things:///update?id=EXISTING&auth-token=TOKEN&deadline=", "to-do Existing in Groceries tags=Errand notes=Old checklist=one"),
    LinkCase("things:///update?id=EXISTING&auth-token=TOKEN&deadline=2027-02-01", "to-do Existing in Groceries deadline=2027-02-01 tags=Errand notes=Old checklist=one"),
    LinkCase("things:///update?id=EXISTING&auth-token=TOKEN&tags=Urgent", "to-do Existing in Groceries deadline=2027-01-20 tags=Urgent notes=Old checklist=one", "tag Urgent"),
    LinkCase("things:///update?id=EXISTING&auth-token=TOKEN&tags=", "to-do Existing in Groceries deadline=2027-01-20 notes=Old checklist=one"),
    LinkCase("things:///update?id=EXISTING&auth-token=TOKEN&add-tags=Urgent", "to-do Existing in Groceries deadline=2027-01-20 tags=Errand,Urgent notes=Old checklist=one", "tag Urgent"),
    LinkCase("things:///update?id=EXISTING&auth-token=TOKEN&checklist-items=A%0AB", "to-do Existing in Groceries deadline=2027-01-20 tags=Errand notes=Old checklist=A,B"),
    LinkCase("things:///update?id=EXISTING&auth-token=TOKEN&checklist-items=", "to-do Existing in Groceries deadline=2027-01-20 tags=Errand notes=Old"),
    LinkCase("things:///update?id=EXISTING&auth-token=TOKEN&prepend-checklist-items=Y%0AZ", "to-do Existing in Groceries deadline=2027-01-20 tags=Errand notes=Old checklist=Y,Z,one"),
    LinkCase("things:///update?id=EXISTING&auth-token=TOKEN&append-checklist-items=Z", "to-do Existing in Groceries deadline=2027-01-20 tags=Errand notes=Old checklist=one,Z"),
    LinkCase("things:///update?id=EXISTING&auth-token=TOKEN&list=Chores", "to-do Existing in Chores deadline=2027-01-20 tags=Errand notes=Old checklist=one"),
    LinkCase("things:///update?id=EXISTING&auth-token=TOKEN&heading=Dairy", "to-do Existing in Groceries/Dairy deadline=2027-01-20 tags=Errand notes=Old checklist=one"),
    LinkCase("things:///update?id=EXISTING&auth-token=TOKEN&list-id=GROCERIES&heading-id=DAIRY", "to-do Existing in Groceries/Dairy deadline=2027-01-20 tags=Errand notes=Old checklist=one"),
    LinkCase("things:///update?id=EXISTING&auth-token=TOKEN&completed=true", "to-do Existing in Groceries deadline=2027-01-20 tags=Errand notes=Old checklist=one completed"),
    LinkCase(
        "things:///update?id=EXISTING&auth-token=TOKEN&completed=true&completion-date=2027-01-10T12:00:00Z",
        "to-do Existing in Groceries deadline=2027-01-20 tags=Errand notes=Old checklist=one completed@2027-01-10T12:00:00Z"),
    LinkCase("things:///update?id=EXISTING&auth-token=TOKEN&canceled=true", "to-do Existing in Groceries deadline=2027-01-20 tags=Errand notes=Old checklist=one canceled"),
    LinkCase("things:///update?id=EXISTING&auth-token=TOKEN&duplicate=true&title=Copy", "to-do Copy in Groceries deadline=2027-01-20 tags=Errand notes=Old checklist=one"),
    LinkCase("things:///update?id=\(LinkFixture.importedToDo)&auth-token=TOKEN&title=Found", "to-do Found in Groceries"),
    LinkCase(
        "things:///update?id=EXISTING&auth-token=TOKEN&creation-date=2026-03-01T00:00:00Z",
        "to-do Existing in Groceries deadline=2027-01-20 tags=Errand notes=Old checklist=one created@2026-03-01T00:00:00Z"),
    LinkCase("things:///update?id=EXISTING&auth-token=TOKEN&reveal=true", ),
    // update-project.
    LinkCase(
        "things:///update-project?id=GROCERIES&auth-token=TOKEN&duplicate=true&when=tomorrow", "list Groceries (2) when=2027-01-16", "heading Groceries (2)/Dairy",
        "to-do Existing in Groceries (2) deadline=2027-01-20 tags=Errand notes=Old checklist=one", "to-do Imported in Groceries (2)"),
    LinkCase(
        "things:///update-project?id=GROCERIES&auth-token=TOKEN&title=Food", "list Food", "heading Food/Dairy", "to-do Imported in Food",
        "to-do Existing in Food deadline=2027-01-20 tags=Errand notes=Old checklist=one"),
    LinkCase("things:///update-project?id=GROCERIES&auth-token=TOKEN&area=Home", "list Groceries area=Home"),
    LinkCase("things:///update-project?id=GROCERIES&auth-token=TOKEN&area-id=HOME&creation-date=2026-05-01T00:00:00Z", "list Groceries area=Home created@2026-05-01T00:00:00Z"),
    LinkCase(
        "things:///update-project?id=\(LinkFixture.importedProject)&auth-token=TOKEN&completed=true&completion-date=2027-01-02T00:00:00Z",
        "list Imported Project completed"),
    LinkCase("things:///update-project?id=GROCERIES&auth-token=TOKEN&when=someday&deadline=2027-03-01", "list Groceries when=someday deadline=2027-03-01"),
    LinkCase("things:///update-project?id=GROCERIES&auth-token=TOKEN&tags=Errand", "list Groceries tags=Errand"),
    LinkCase("things:///update-project?id=GROCERIES&auth-token=TOKEN&notes=Weekly&append-notes=Cash%20only", "list Groceries notes=Weekly\\nCash only"),
    LinkCase("things:///update-project?id=GROCERIES&auth-token=TOKEN&prepend-notes=Saturdays", "list Groceries notes=Saturdays"),
    LinkCase("things:///update-project?id=\(LinkFixture.importedProject)&auth-token=TOKEN&add-tags=Errand", "list Imported Project tags=Errand"),
    LinkCase(
        "things:///update-project?id=GROCERIES&auth-token=TOKEN&canceled=true", "list Groceries canceled",
        "to-do Existing in Groceries deadline=2027-01-20 tags=Errand notes=Old checklist=one canceled", "to-do Imported in Groceries canceled"),
    // json, in ThingsJSONCoder's format.
    LinkCase(
        #"things:///json?data=[{"type":"to-do","attributes":{"title":"Milk","when":"tomorrow","tags":["Errand"],"checklist-items":[{"type":"checklist-item","attributes":{"title":"Skim","completed":true}},{"type":"checklist-item","attributes":{"title":"Whole","canceled":true}}]}}]"#,
        "to-do Milk in Inbox when=2027-01-16 tags=Errand checklist=Skim✓,Whole✗"),
    LinkCase(
        #"things:///json?data=[{"type":"project","attributes":{"title":"Party","area":"Home","items":[{"type":"to-do","attributes":{"title":"Invite"}},{"type":"heading","attributes":{"title":"Food"}},{"type":"to-do","attributes":{"title":"Cake","deadline":"2027-01-30"}}]}}]"#,
        "list Party area=Home", "to-do Invite in Party", "heading Party/Food", "to-do Cake in Party/Food deadline=2027-01-30"),
    LinkCase(
        #"things:///json?auth-token=TOKEN&data=[{"type":"to-do","operation":"update","id":"EXISTING","attributes":{"title":"Fresh milk","add-tags":["Dairy"],"append-checklist-items":[{"type":"checklist-item","attributes":{"title":"two"}}]}},{"type":"to-do","attributes":{"title":"Eggs","list":"Groceries","heading":"Dairy"}}]"#,
        "to-do Fresh milk in Groceries deadline=2027-01-20 tags=Dairy,Errand notes=Old checklist=one,two", "tag Dairy", "to-do Eggs in Groceries/Dairy"),
    LinkCase(
        #"things:///json?auth-token=TOKEN&data=[{"type":"project","operation":"update","id":"GROCERIES","attributes":{"items":[{"type":"heading","attributes":{"title":"Bakery"}},{"type":"to-do","attributes":{"title":"Bread"}}]}}]"#,
        "heading Groceries/Bakery", "to-do Bread in Groceries/Bakery"),
    LinkCase(#"things:///json?data=%5B%7B%22type%22%3A%22to-do%22%2C%22attributes%22%3A%7B%22title%22%3A%22A%20%26%20B%22%7D%7D%5D&reveal=true"#, "to-do A & B in Inbox"),
    // Refused whole, with the store left as it was.
    LinkCase("things:///delete?id=EXISTING", fails: .unknownCommand("delete")),
    LinkCase("http:///add?title=Milk", fails: .unknownScheme("http")),
    LinkCase("", fails: .malformedLink),
    LinkCase("::::", fails: .malformedLink),
    LinkCase("things:///add?title=Milk&x-success=::", fails: .invalidValue(parameter: "x-success", value: "::")),
    LinkCase("things:///add?title=A&title=B", fails: .repeatedParameter("title")),
    LinkCase("things:///add?title=Milk&completed=maybe", fails: .invalidValue(parameter: "completed", value: "maybe")),
    LinkCase("things:///add?title=Milk&completion-date=yesterday", fails: .invalidValue(parameter: "completion-date", value: "yesterday")),
    LinkCase("things:///add?title=Milk&completed=true&completion-date=2099-01-01T00:00:00Z", fails: .futureDate(parameter: "completion-date")),
    LinkCase("things:///add?title=Milk&creation-date=2099-01-01T00:00:00Z", fails: .futureDate(parameter: "creation-date")),
    LinkCase("things:///add?title=Milk&heading=Dairy", fails: .headingWithoutProject),
    LinkCase("things:///add?title=Milk&list=Nowhere", fails: .unknownList("Nowhere")),
    LinkCase("things:///add?title=Milk&list=Home", fails: .toDoInArea("Home")),
    LinkCase("things:///add?title=Milk&list=Groceries&heading-id=\(LinkFixture.importedToDo)", fails: .unknownHeading(LinkFixture.importedToDo)),
    LinkCase("things:///add?title=Milk&when=whenever", failsSaying: "whenever"),
    LinkCase("things:///add?title=Milk&notes=" + String(repeating: "n", count: 10_001), fails: .notesTooLong(10_001)),
    LinkCase("things:///add?title=" + String(repeating: "t", count: 1_001), failsSaying: "1000"),
    LinkCase("things:///add?titles=" + (1...251).map { "T\($0)" }.joined(separator: "%0A"), fails: .tooManyObjects(251)),
    LinkCase("things:///add-project?title=Trip&when=tomorrow@9am", fails: .reminderOnProject("tomorrow@9am")),
    LinkCase("things:///add-project?title=Trip&area=Office", fails: .unknownArea("Office")),
    LinkCase("things:///add-project?title=Groceries", failsSaying: "Groceries"),
    LinkCase("things:///update?id=EXISTING&title=Renamed", fails: .missingToken),
    LinkCase("things:///update?id=EXISTING&auth-token=wrong&title=Renamed", fails: .wrongToken),
    LinkCase("things:///update?auth-token=TOKEN&title=Renamed", fails: .missingParameter("id")),
    LinkCase("things:///update?id=nothing&auth-token=TOKEN&title=Renamed", fails: .unknownToDo("nothing")),
    LinkCase("things:///update-project?id=Nowhere&auth-token=TOKEN&title=Renamed", fails: .unknownList("Nowhere")),
    LinkCase("things:///json?data=%5B%7B", fails: .malformedJSON),
    LinkCase(#"things:///json?data={"type":"to-do"}"#, fails: .malformedJSON),
    LinkCase(#"things:///json?data=[{"type":"to-do","operation":"update","attributes":{"title":"X"}}]"#, fails: .invalidObject(number: 1, reason: .updateWithoutID)),
    LinkCase(#"things:///json?data=[{"type":"to-do","operation":"update","id":"EXISTING","attributes":{"title":"X"}}]"#, fails: .missingToken),
    LinkCase(#"things:///json?data=[{"type":"heading","attributes":{"title":"Dairy"}}]"#, fails: .invalidObject(number: 1, reason: .headingOutsideProject)),
    LinkCase(#"things:///json?data=[{"type":"to-do","attributes":{"title":"A","completed":"yes"}}]"#, fails: .invalidObject(number: 1, reason: .wrongForm(attribute: "completed", expected: .boolean))),
    LinkCase(#"things:///json?data=[{"type":"area","attributes":{"title":"A"}}]"#, fails: .invalidObject(number: 1, reason: .unknownType("area"))),
    LinkCase(
        #"things:///json?data=[{"type":"to-do","attributes":{"title":"A"}},{"type":"project","attributes":{"title":"P","items":[{"type":"to-do","operation":"update","id":"EXISTING","attributes":{}}]}}]"#,
        fails: .invalidObject(number: 2, reason: .updateInProject)),
    LinkCase(#"things:///json?data=[{"type":"project","attributes":{"title":"P","items":[{"type":"heading","attributes":{"title":"H","archived":true}}]}}]"#, fails: .invalidObject(number: 1, reason: .archivedHeading)),
    LinkCase(
        #"things:///json?data=[{"type":"to-do","attributes":{"title":"1"}},{"type":"to-do","attributes":{"title":"2"}},{"type":"to-do","attributes":{"title":"3"}},{"type":"to-do","attributes":{"title":"4"}},{"type":"to-do","attributes":{"title":"5","list":"Nowhere"}}]"#,
        fails: .refusedObject(number: 5, reason: "No list is named or has the id “Nowhere”.")),
]

@Suite("Links of Things' URL scheme")
struct ThingsLinkTests {
    @Test("Each link of the table does what Things does, or is refused whole", arguments: linkTable)
    func table(_ row: LinkCase) async throws {
        let fixture = try await LinkFixture()
        let before = try await fixture.lines()
        let steps = fixture.environment.undoCount
        switch row.outcome {
        case .changes(let expected):
            try await fixture.open(row.link)
            let after = try await fixture.lines()
            #expect(after.subtracting(before) == expected)
            #expect(fixture.environment.undoCount == steps + (expected.isEmpty ? 0 : 1), "one link, one step of the history")
            if !expected.isEmpty {
                try await Undo().perform(in: fixture.environment)
                #expect(try await fixture.lines() == before, "one undo takes the whole link back")
            }
        case .fails(let error):
            await #expect(throws: error) { try await fixture.open(row.link) }
            #expect(try await fixture.lines() == before)
            #expect(error.errorDescription?.isEmpty == false)
        case .failsSaying(let text):
            do {
                try await fixture.open(row.link)
                Issue.record("expected a failure that says \(text)")
            } catch {
                #expect(error.localizedDescription.contains(text), "\(error.localizedDescription)")
            }
            #expect(try await fixture.lines() == before)
        }
    }

    @Test("The table holds more than 60 links, both schemes among them")
    func tableSize() {
        #expect(linkTable.count > 60)
        #expect(linkTable.contains { $0.link.hasPrefix("arrange:") } && linkTable.contains { $0.link.hasPrefix("things:") })
    }

    @Test("add answers x-things-id, with one id for each title, and fills x-success; json answers x-things-ids in order")
    func answers() async throws {
        let fixture = try await LinkFixture()
        let link = try ThingsLink(fixture.link("things:///add?titles=A%0AB&x-success=drafts://x-callback-url/done?keep=1"))
        let answer = try await OpenThingsLink(link).perform(in: fixture.environment)
        let ids = try #require(answer.values.first { $0.name == "x-things-id" }).value.split(separator: ",").map(String.init)
        #expect(ids.count == 2 && ids == answer.ids)
        let items = try await ShowItem(item: try #require(Item.ID(ids[1]))).perform(in: fixture.environment)
        #expect(items.item.title == "B")
        let filled = try #require(link.successURL.map(answer.filling))
        let query = try #require(URLComponents(url: filled, resolvingAgainstBaseURL: false)?.queryItems)
        #expect(query == [URLQueryItem(name: "keep", value: "1"), URLQueryItem(name: "x-things-id", value: ids.joined(separator: ","))])

        let json = try await fixture.open(#"things:///json?data=[{"type":"project","attributes":{"title":"P"}},{"type":"to-do","attributes":{"title":"T"}}]"#)
        let array = try #require(json.values.first { $0.name == "x-things-ids" }).value
        #expect(try JSONDecoder().decode([String].self, from: Data(array.utf8)) == json.ids && json.ids.count == 2)
        #expect(try await fixture.repository.read { try $0.list(id: try #require(ItemList.ID(json.ids[0]))) }?.name == "P")
    }

    @Test("version answers the scheme's version and the client's; unknown parameters are ignored and named")
    func versionAndIgnored() async throws {
        let fixture = try await LinkFixture()
        let version = try await fixture.open("things:///version")
        #expect(version.values == [
            ThingsCallbackValue(name: "x-things-scheme-version", value: "2"),
            ThingsCallbackValue(name: "x-things-client-version", value: ThingsLink.arrangeVersion),
        ])
        let ignored = try ThingsLink("things:///add?title=Milk&colour=red&reveal=true&use-clipboard=replace-title")
        #expect(ignored.ignoredParameters == ["colour"])
        let json = try ThingsLink(#"things:///json?data=[{"type":"to-do","attributes":{"title":"A","colour":"red"}}]"#)
        #expect(json.ignoredParameters == ["data[0].attributes.colour"])
    }

    @Test("show answers the view its id or query names, filtered by tags; search answers Quick Find")
    func show() async throws {
        let fixture = try await LinkFixture()
        try await fixture.open("things:///add?title=Milk&when=today&tags=Errand")
        try await fixture.open("things:///add?title=Bread&when=today")
        guard case .today(let today)? = try await fixture.open("things:///show?id=today&filter=errand").view else { Issue.record("not today"); return }
        #expect(today.items.map(\.title) == ["Milk"])
        guard case .list(let inbox)? = try await fixture.open("things:///show?id=inbox").view else { Issue.record("not a list"); return }
        #expect(inbox.items.map(\.title) == ["Milk", "Bread"])
        guard case .list(let groceries)? = try await fixture.open("things:///show?query=groceries").view else { Issue.record("not a list"); return }
        #expect(groceries.items.map(\.title).contains("Existing"))
        guard case .toDo(let item)? = try await fixture.open("things:///show?id=\(LinkFixture.importedToDo)").view else { Issue.record("not a to-do"); return }
        #expect(item.item.title == "Imported")
        for list in ThingsBuiltInList.allCases {
            let view = try #require(try await fixture.open("things:///show?id=\(list.rawValue)").view)
            #expect(view.name == (list == .inbox ? "list" : list.rawValue))
            let data = try JSONEncoder().encode(view)
            #expect(try JSONDecoder().decode(ThingsView.self, from: data) == view)
        }
        guard case .search(let found)? = try await fixture.open("things:///search?query=exist").view else { Issue.record("not a search"); return }
        #expect(found.items.map(\.item.title) == ["Existing"])
        await #expect(throws: ThingsLinkError.unknownTag("Nope")) { try await fixture.open("things:///show?id=today&filter=Nope") }
        await #expect(throws: ThingsLinkError.nothingWithID("zzz")) { try await fixture.open("things:///show?id=zzz") }
        #expect(OpenThingsLink(try ThingsLink("things:///show?id=today")).isReadOnly)
    }

    @Test("A store without a link token refuses links that update; a new token replaces the old, and the store keeps only its digest")
    func token() async throws {
        let environment = try IntentEnvironment(repository: InMemoryItemRepository())
        let added = try await OpenThingsLink(try ThingsLink("things:///add?title=Milk")).perform(in: environment)
        let update = "things:///update?id=\(added.ids[0])&title=Oat&auth-token="
        await #expect(throws: ThingsLinkError.noToken) { try await OpenThingsLink(try ThingsLink(update + "anything")).perform(in: environment) }
        let first = try await MakeLinkToken().perform(in: environment).token
        let second = try await MakeLinkToken().perform(in: environment).token
        #expect(first != second && first.count == 22 && second.count == 22)
        #expect(second.allSatisfy { $0.isLetter || $0.isNumber } && !second.contains { "0OIl".contains($0) })
        await #expect(throws: ThingsLinkError.wrongToken) { try await OpenThingsLink(try ThingsLink(update + first)).perform(in: environment) }
        try await OpenThingsLink(try ThingsLink(update + second)).perform(in: environment)
        #expect(try await ShowItem(item: try #require(Item.ID(added.ids[0]))).perform(in: environment).item.title == "Oat")
        let stored = try await environment.repository.read { try $0.value(of: .linkTokenDigest) }
        #expect(stored != nil && stored != second && stored?.count == 64)
    }

    @Test("Every error of a link has a message")
    func messages() {
        let errors: [ThingsLinkError] = [
            .malformedLink, .unknownScheme("http"), .unknownCommand("x"), .repeatedParameter("title"), .missingParameter("id"),
            .invalidValue(parameter: "completed", value: "maybe"), .tooManyObjects(251), .malformedJSON,
            .invalidObject(number: 2, reason: .wrongForm(attribute: "tags", expected: .names)), .refusedObject(number: 3, reason: "Because."),
            .noToken, .missingToken, .wrongToken, .unknownToDo("x"), .unknownList("x"), .unknownArea("x"), .unknownHeading("x"),
            .toDoInArea("Home"), .headingWithoutProject, .futureDate(parameter: "completion-date"), .reminderOnProject("today@9"),
            .unknownTag("x"), .nothingWithID("x"), .notesTooLong(10_001),
        ]
        for error in errors {
            let message = error.errorDescription ?? ""
            #expect(!message.isEmpty && !message.contains("ThingsLinkError.") && !message.contains("{"), "\(error): \(message)")
        }
        let problems: [ThingsObjectProblem] = [
            .notAnObject, .missingType, .unknownType("x"), .unknownOperation("x"), .updateWithoutID, .headingOutsideProject,
            .checklistItemOutsideToDo, .archivedHeading, .updateInProject,
        ]
        for problem in problems { #expect(!problem.message.contains("ThingsObjectProblem.") && !problem.message.isEmpty) }
        let callback = ThingsLinkError.wrongToken.filling(URL(string: "drafts://x-callback-url/failed")!)
        #expect(callback.absoluteString.hasPrefix("drafts://x-callback-url/failed?errorMessage="))
    }
}

/// Values in the shape `ThingsJSONCoder` gives them (`TJSContainer`, `TJSTodo`, `TJSProject`,
/// `TJSHeading`, `TJSChecklistItem`): each item an object of `type`, `operation`, `id` and
/// `attributes`, the attributes' keys in kebab-case, the dates in ISO 8601.
private enum ThingsJSONCoderShape {
    struct Item: Encodable {
        var type: String
        var operation: String?
        var id: String?
        var attributes: Attributes
    }

    struct Attributes: Encodable {
        var title: String?
        var notes: String?
        var when: String?
        var deadline: String?
        var tags: [String]?
        var checklistItems: [Item]?
        var listID: String?
        var list: String?
        var heading: String?
        var completed: Bool?
        var creationDate: Date?
        var completionDate: Date?
        var area: String?
        var items: [Item]?

        enum CodingKeys: String, CodingKey {
            case title, notes, when, deadline, tags, list, heading, completed, area, items
            case checklistItems = "checklist-items"
            case listID = "list-id"
            case creationDate = "creation-date"
            case completionDate = "completion-date"
        }
    }

    /// The link of a `json` command holding `items`, built as the coder's samples build it:
    /// the JSON as the `data` query item of `URLComponents`.
    static func link(_ items: [Item], authToken: String? = nil) throws -> String {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        var components = URLComponents(string: "things:///json")
        components?.queryItems = [URLQueryItem(name: "data", value: String(decoding: try encoder.encode(items), as: UTF8.self))]
            + (authToken.map { [URLQueryItem(name: "auth-token", value: $0)] } ?? [])
        return try #require(components?.url?.absoluteString)
    }
}

extension ThingsLinkTests {
    @Test("Links made by encoding values in ThingsJSONCoder's format create and update what they hold, awkward text and all")
    func encodedLinks() async throws {
        typealias Shape = ThingsJSONCoderShape
        let fixture = try await LinkFixture()
        let created = Date(timeIntervalSince1970: 1_790_000_000)
        let title = "Milk & honey = 1+1 100% 🍯\nsecond line"
        let todo = Shape.Item(type: "to-do", operation: nil, id: nil, attributes: Shape.Attributes(
            title: "Tea & biscuits", notes: title, when: "tomorrow@7:45", deadline: "2027-02-01", tags: ["Errand", "Pantry"],
            checklistItems: [Shape.Item(type: "checklist-item", attributes: Shape.Attributes(title: "Earl Grey", completed: true))],
            listID: fixture.groceries.text, heading: "Dairy", creationDate: created))
        let project = Shape.Item(type: "project", attributes: Shape.Attributes(
            title: "Picnic", notes: "Saturday", area: "Home",
            items: [
                Shape.Item(type: "heading", attributes: Shape.Attributes(title: "Food")),
                Shape.Item(type: "to-do", attributes: Shape.Attributes(title: "Sandwiches", completed: true, completionDate: created)),
            ]))
        let update = Shape.Item(type: "to-do", operation: "update", id: fixture.existing.text, attributes: Shape.Attributes(title: "Oat milk"))
        let link = try Shape.link([todo, project, update], authToken: fixture.token)
        let before = try await fixture.lines()
        let answer = try await fixture.open(link)
        #expect(answer.ids.count == 3 && answer.ids[2] == fixture.existing.text)
        #expect(try await fixture.lines().subtracting(before) == [
            "to-do Tea & biscuits in Groceries/Dairy when=2027-01-16 reminder=07:45 deadline=2027-02-01 tags=Errand,Pantry notes=Milk & honey = 1+1 100% 🍯\\nsecond line checklist=Earl Grey✓ created@2026-09-21T14:13:20Z",
            "tag Pantry", "list Picnic area=Home notes=Saturday", "heading Picnic/Food",
            "to-do Sandwiches in Picnic/Food completed@2026-09-21T14:13:20Z",
            "to-do Oat milk in Groceries deadline=2027-01-20 tags=Errand notes=Old checklist=one",
        ])
    }
}

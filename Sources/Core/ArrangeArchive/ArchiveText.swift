public import ArrangeModel
import Foundation

extension Archive {
    /// The lists as Markdown: a `# List` heading each, then `- [ ]` and `- [x]` lines for the
    /// open and completed items, in order (a canceled item struck through: `- [x] ~~Title~~`), each item's checklist below it as indented task lines;
    /// the items of each of the list's headings follow under a `## Heading`. A finished list's
    /// heading says so: `# Launch (completed)`, `# Old plans (canceled)`. An item's tags follow its
    /// title, in the tags' order: `- [ ] Milk #Errand #Eat_out` (a space in a name becomes `_`).
    /// What is in the Trash is left out.
    ///
    /// ```markdown
    /// # Groceries
    ///
    /// - [ ] Milk
    ///   - [x] Oat
    ///   - [ ] Whole
    ///
    /// ## Bakery
    ///
    /// - [x] Bread
    /// ```
    public func markdown() -> String {
        func task(_ title: String, done: Bool, canceled: Bool = false, indent: String = "", tags: [Tag.ID]? = nil) -> String {
            "\(indent)- [\(done ? "x" : " ")] \(canceled ? "~~\(title)~~" : title)" + hashtags(tags)
        }
        // An item's tags after its title, in the tags' order, each `#Name` with its spaces as `_`.
        let tagRanks = Dictionary((tags ?? []).enumerated().map { ($1.id, ($0, $1.name)) }, uniquingKeysWith: { first, _ in first })
        func hashtags(_ ids: [Tag.ID]?) -> String {
            (ids ?? []).compactMap { tagRanks[$0] }.sorted { $0.0 < $1.0 }.map { " #" + $0.1.replacingOccurrences(of: " ", with: "_") }.joined()
        }
        func tasks(_ items: [ArchivedItem]) -> [String] {
            items.filter { $0.trashedAt == nil }.flatMap { item in
                [task(item.title, done: item.completedAt != nil, canceled: item.canceled == true, tags: item.tags)]
                    + (item.checklist ?? []).map { task($0.title, done: $0.completedAt != nil, canceled: $0.canceled == true, indent: "  ") }
            }
        }
        return lists.filter { $0.trashedAt == nil }.map { list in
            let byHeading = Dictionary(grouping: list.items, by: \.heading)
            let status = list.completedAt == nil ? "" : list.canceled == true ? " (canceled)" : " (completed)"
            var blocks = ["# \(list.name)\(status)"] + tasks(byHeading[nil] ?? []).joined(separator: "\n").nonEmpty
            for heading in list.headings ?? [] where heading.trashedAt == nil {
                blocks += ["## \(heading.title)"] + tasks(byHeading[heading.id] ?? []).joined(separator: "\n").nonEmpty
            }
            return blocks.joined(separator: "\n\n")
        }
        .joined(separator: "\n\n") + "\n"
    }

    /// The columns of ``csv()``, in order.
    public static let csvColumns = [
        "list", "title", "notes", "completed", "completed_at", "created_at", "updated_at", "today", "id", "list_id",
        "start_date", "someday", "evening", "deadline", "status", "trashed_at", "reminder",
    ]

    /// One row per item, lists and items in order, as CSV (RFC 4180): a header of
    /// ``csvColumns``, fields quoted when they hold a comma, a quote or a line break, lines
    /// ending in CR LF. Dates are ISO 8601 in UTC; `today` is the item's 1-based place in
    /// Today, empty when it is not there; days (`start_date`, `deadline`) are `YYYY-MM-DD`,
    /// empty when unset; `status` is `open`, `completed` or `canceled` (`completed` is `true`
    /// for both of the last two); `trashed_at` is when the item went to the Trash, itself or with
    /// its list or heading, empty out of it; `reminder` is its time, `HH:MM`, empty for none.
    public func csv() -> String {
        let today = Dictionary(uniqueKeysWithValues: todayOrder.enumerated().map { ($1, $0 + 1) })
        let date = { (date: Date?) in date.map { $0.formatted(.iso8601) } ?? "" }
        var rows = [Self.csvColumns]
        for list in lists {
            let trashedHeadings = Dictionary((list.headings ?? []).compactMap { heading in heading.trashedAt.map { (heading.id, $0) } }) { first, _ in first }
            for item in list.items {
                let trashedAt = item.trashedAt ?? item.heading.flatMap { trashedHeadings[$0] } ?? list.trashedAt
                rows.append([
                    list.name, item.title, item.notes, item.completedAt == nil ? "false" : "true", date(item.completedAt),
                    date(item.createdAt), date(item.updatedAt), today[item.id].map(String.init) ?? "", item.id.text, list.id.text,
                    item.startDate?.description ?? "", item.someday == true ? "true" : "false", item.evening == true ? "true" : "false",
                    item.deadline?.description ?? "", item.completedAt == nil ? "open" : item.canceled == true ? "canceled" : "completed",
                    date(trashedAt), item.reminder?.description ?? "",
                ])
            }
        }
        return rows.map { $0.map(Self.csvField).joined(separator: ",") + "\r\n" }.joined()
    }

    /// The ids of the items in Today, in Today's order (their `todayIndex`, then id).
    public var todayOrder: [Item.ID] {
        lists.flatMap(\.items)
            .compactMap { item in item.todayIndex.map { (key: $0, id: item.id) } }
            .sorted { ($0.key, $0.id) < ($1.key, $1.id) }
            .map(\.id)
    }

    /// A field of RFC 4180: quoted, its quotes doubled, when it holds a comma, a quote, CR or LF.
    private static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

extension String {
    /// The string in an array, or no element when it is empty.
    fileprivate var nonEmpty: [String] { isEmpty ? [] : [self] }
}

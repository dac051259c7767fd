import ArrangeModel
import ArrangeStore
import Crypto
import Foundation

extension SyncSnapshot {
    /// The SHA-256 digest, in 64 lowercase hex digits, of what sync decides in the snapshot's
    /// store: each area's id, name and key; each list's id, name, key, area and whether it is
    /// finished, completed or canceled; each heading's
    /// id, list, title and key; each item's id, list, title, notes, key, whether it is done, its
    /// key in Today, its heading, when it is meant to be done and its deadline; and each checklist entry's id, item, title, key and
    /// whether it is done; each tag's id, name, parent and key, each id merged into another
    /// tag, and the tags of each item, list and area; each repeating series' rule, template and
    /// the dates it made, and the series of each item. Two stores that hold the same operations have the same
    /// digest, whatever order the operations reached them in; the clocks of creation and change
    /// stay out of it.
    ///
    /// A device compares its own with the one its sync server gives, to check that it holds
    /// exactly what the server holds.
    ///
    /// ```swift
    /// let mine = try await engine.snapshot().stateDigest
    /// ```
    ///
    /// - Complexity: O(n) for n lists and items.
    public var stateDigest: String {
        var digest = SHA256()
        func add(_ fields: [String]) {
            // Each field as a JSON string, so that no title can pass for a field boundary.
            let line = fields.map { field in
                String(decoding: (try? JSONEncoder().encode(field)) ?? Data(), as: UTF8.self)
            }.joined(separator: ",")
            digest.update(data: Data((line + "\n").utf8))
        }
        for list in lists.sorted(by: { $0.id.rawValue.uuidString < $1.id.rawValue.uuidString }) {
            // The area only when there is one, and a finish and dates only when set: a store
            // without them keeps the digest it had before them.
            add(
                ["list", list.id.rawValue.uuidString, list.name, String(list.sortIndex)] + (list.area.map { [$0.rawValue.uuidString] } ?? [])
                    + (list.isFinished ? ["finished=\(list.status.rawValue)"] : []) + Self.tagsField(list.tags) + Self.trashField(list.trashedAt)
                    + Self.dateFields(list.when, deadline: list.deadline) + (list.notes.isEmpty ? [] : ["notes=" + list.notes]))
        }
        for area in areas.sorted(by: { $0.id.rawValue.uuidString < $1.id.rawValue.uuidString }) {
            add(["area", area.id.rawValue.uuidString, area.name, String(area.sortIndex)] + Self.tagsField(area.tags))
        }
        for heading in headings.sorted(by: { $0.id.rawValue.uuidString < $1.id.rawValue.uuidString }) {
            add(
                ["heading", heading.id.rawValue.uuidString, heading.listID.rawValue.uuidString, heading.title, String(heading.sortIndex)]
                    + Self.trashField(heading.trashedAt))
        }
        for item in items.sorted(by: { $0.id.rawValue.uuidString < $1.id.rawValue.uuidString }) {
            // The heading only when there is one, as a list's area; the dates and a cancelation
            // only when set, each named, so that a store without them keeps the digest it had before them.
            var dates = Self.dateFields(item.when, deadline: item.deadline)
            if item.deadlineDismissed { dates.append("dismissed") }
            if item.isCanceled { dates.append("canceled") }
            if let reminder = item.reminder { dates.append("reminder=\(reminder)") }
            if let series = item.series { dates.append("series=\(series.text)") }
            switch item.todayMark {
            case .added(let day, let evening)?: dates.append("todayAdded=\(day)" + (evening ? " evening" : ""))
            case .removed(let day)?: dates.append("todayRemoved=\(day)")
            case nil: break
            }
            add([
                "item", item.id.rawValue.uuidString, item.listID.rawValue.uuidString, item.title, item.notes, String(item.sortIndex),
                item.isCompleted ? "done" : "open", item.todayIndex.map(String.init) ?? "",
            ] + (item.heading.map { [$0.rawValue.uuidString] } ?? []) + dates + Self.tagsField(item.tags) + Self.trashField(item.trashedAt))
        }
        for entry in checklistItems.sorted(by: { $0.id.rawValue.uuidString < $1.id.rawValue.uuidString }) {
            add([
                "checklistItem", entry.id.rawValue.uuidString, entry.itemID.rawValue.uuidString, entry.title, String(entry.sortIndex),
                entry.isCompleted ? "done" : "open",
            ] + (entry.isCanceled ? ["canceled"] : []))
        }
        // Tags only when there are some, as areas: a store without them keeps its digest.
        for tag in tags.sorted(by: { $0.id < $1.id }) {
            add(["tag", tag.id.text, tag.name, tag.parent?.text ?? "", String(tag.sortIndex)])
        }
        for merge in tagMerges {
            add(["tagMerge", merge.id.text, merge.tag.text])
        }
        // Repeating series only when there are some, as tags.
        let rules = JSONEncoder()
        rules.outputFormatting = .sortedKeys
        for series in self.series.sorted(by: { $0.id < $1.id }) {
            add([
                "series", series.id.text, String(decoding: (try? rules.encode(series.rule)) ?? Data(), as: UTF8.self), series.start.description,
                series.madeThrough?.description ?? "", String(series.madeCount), series.isPaused ? "paused" : "active", series.listID.text,
                series.heading?.text ?? "", series.title, series.notes, series.tags.sorted().map(\.text).joined(separator: " "),
                series.checklist.joined(separator: "\n"), series.reminder?.description ?? "",
            ])
        }
        return OperationFile.Trailer.hex(digest.finalize())
    }

    /// The fields of a when and a deadline, each named and only when set, so that a row without
    /// them keeps the digest it had before them.
    private static func dateFields(_ when: When, deadline: Day?) -> [String] {
        var fields: [String] = []
        switch when {
        case .anytime: break
        case .someday: fields.append("when=someday")
        case .on(let day, let evening): fields.append("when=\(day)\(evening ? " evening" : "")")
        }
        if let deadline { fields.append("deadline=\(deadline)") }
        return fields
    }

    /// The field of a thing in the Trash itself, only then: a store without the Trash keeps the
    /// digest it had before it.
    private static func trashField(_ trashedAt: Date?) -> [String] {
        trashedAt == nil ? [] : ["trashed"]
    }

    /// The field of a thing's tags, by id, only when it has some: a thing without them keeps the
    /// digest it had before tags.
    private static func tagsField(_ tags: Set<Tag.ID>) -> [String] {
        tags.isEmpty ? [] : ["tags=" + tags.sorted().map(\.text).joined(separator: " ")]
    }
}

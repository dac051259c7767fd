import ArrangeModel
public import Foundation

/// Why a file is not an archive this version can import. Nothing was imported.
public enum ArchiveError: Error, Hashable, Sendable {
    /// The file is not valid JSON; the reason says where (line and column).
    case malformed(String)
    /// The file is JSON, but not an Arrange archive.
    case notAnArchive
    /// The archive was written in a newer format version than this one reads.
    case newerVersion(Int)
    /// A value does not fit: `path` says where (`lists[2].items[0].title`).
    case invalid(path: String, reason: String)
}

extension ArchiveError: LocalizedError {
    /// What is wrong with the file, in the app's language.
    public var errorDescription: String? {
        switch self {
        case .malformed: MessageTable.archive.message("ArchiveError.malformed")
        case .notAnArchive: MessageTable.archive.message("ArchiveError.notAnArchive")
        case .newerVersion: MessageTable.archive.message("ArchiveError.newerVersion")
        case .invalid: MessageTable.archive.message("ArchiveError.invalid")
        }
    }
}

extension ArchiveError: CustomStringConvertible, CustomDebugStringConvertible {
    /// What is wrong, in English, with where in the file; a person sees ``errorDescription``.
    public var description: String { debugDescription }

    /// What is wrong, in English, with where in the file.
    public var debugDescription: String {
        switch self {
        case .malformed(let reason):
            "The file is not valid JSON: \(reason)"
        case .notAnArchive:
            #"The file is not an Arrange export: it has no "format": "arrange"."#
        case .newerVersion(let version):
            "The file is in format version \(version), newer than this Arrange reads (\(Archive.currentVersion)); update Arrange to import it."
        case .invalid(let path, let reason):
            "The value at \(path) is not valid: \(reason)"
        }
    }
}

extension Archive {
    /// The archive as JSON: sorted keys, indented, dates as seconds since 1970, a line feed at
    /// the end. The same archive always gives the same bytes.
    ///
    /// It is written in the oldest version that holds all of it (``requiredVersion``).
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .secondsSince1970
        var written = self
        written.version = requiredVersion
        return try encoder.encode(written) + Data("\n".utf8)
    }

    /// Reads and checks an archive.
    ///
    /// The whole file is read and checked before anything uses it: its format and version,
    /// then every value, then that ids and list names are unique and titles are valid.
    ///
    /// - Throws: ``ArchiveError``, saying where the fault is.
    public init(jsonData data: Data) throws(ArchiveError) {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        do {
            let header = try decoder.decode(Header.self, from: data)
            guard header.format == Self.formatName else { throw ArchiveError.notAnArchive }
            guard let version = header.version, version >= 1 else {
                throw ArchiveError.invalid(path: "version", reason: "an archive has a format version of 1 or more.")
            }
            guard version <= Self.currentVersion else { throw ArchiveError.newerVersion(version) }
            self = try decoder.decode(Archive.self, from: data)
        } catch let error as ArchiveError {
            throw error
        } catch let error as DecodingError {
            throw Self.describe(error, in: data)
        } catch {
            throw .malformed(error.localizedDescription)
        }
        try check()
    }

    /// What every archive starts with; decoded first, so that a newer version is named as such.
    private struct Header: Decodable {
        var format: String?
        var version: Int?
    }

    /// Refuses duplicate ids and names, invalid titles, tags whose parent does not come before
    /// them, lists of unknown areas, items under a
    /// heading their list does not have, and items both someday and with a start date, or in
    /// the evening without one, naming the first one's path.
    private func check() throws(ArchiveError) {
        var tagIDs = Set<Tag.ID>()
        var tagNames = Set<String>()
        for (tagIndex, tag) in (tags ?? []).enumerated() {
            let path = "tags[\(tagIndex)]"
            guard tagIDs.insert(tag.id).inserted else { throw .invalid(path: path + ".id", reason: "another tag has the id \(tag.id).") }
            do {
                _ = try Title.validated(tag.name, as: .tagName)
            } catch {
                throw .invalid(path: path + ".name", reason: error.debugDescription)
            }
            guard tagNames.insert(Tag.nameKey(tag.name)).inserted else {
                throw .invalid(path: path + ".name", reason: "another tag is named '\(tag.name)'.")
            }
            if let parent = tag.parent, parent == tag.id || !tagIDs.contains(parent) {
                throw .invalid(path: path + ".parent", reason: "no tag before it in the archive has the id \(parent).")
            }
            if let shortcut = tag.shortcut, shortcut.count != 1 {
                throw .invalid(path: path + ".shortcut", reason: "a shortcut is one character.")
            }
        }
        var areaIDs = Set<Area.ID>()
        var areaNames = Set<String>()
        for (areaIndex, area) in (areas ?? []).enumerated() {
            let path = "areas[\(areaIndex)]"
            guard areaIDs.insert(area.id).inserted else { throw .invalid(path: path + ".id", reason: "another area has the id \(area.id).") }
            do {
                _ = try Title.validated(area.name, as: .areaName)
            } catch {
                throw .invalid(path: path + ".name", reason: error.debugDescription)
            }
            guard areaNames.insert(ItemList.nameKey(area.name)).inserted else {
                throw .invalid(path: path + ".name", reason: "another area is named '\(area.name)'.")
            }
            if let tag = area.tags?.first(where: { !tagIDs.contains($0) }) {
                throw .invalid(path: path + ".tags", reason: "no tag of the archive has the id \(tag).")
            }
        }
        var listIDs = Set<ItemList.ID>()
        var names = Set<String>()
        var itemIDs = Set<Item.ID>()
        var entryIDs = Set<ChecklistItem.ID>()
        var headingIDs = Set<Heading.ID>()
        for (listIndex, list) in lists.enumerated() {
            let path = "lists[\(listIndex)]"
            guard listIDs.insert(list.id).inserted else { throw .invalid(path: path + ".id", reason: "another list has the id \(list.id).") }
            do {
                _ = try Title.validated(list.name, as: .listName)
            } catch {
                throw .invalid(path: path + ".name", reason: error.debugDescription)
            }
            guard names.insert(ItemList.nameKey(list.name)).inserted else {
                throw .invalid(path: path + ".name", reason: "another list is named '\(list.name)'.")
            }
            if let area = list.area, !areaIDs.contains(area) {
                throw .invalid(path: path + ".area", reason: "no area of the archive has the id \(area).")
            }
            if let tag = list.tags?.first(where: { !tagIDs.contains($0) }) {
                throw .invalid(path: path + ".tags", reason: "no tag of the archive has the id \(tag).")
            }
            var listHeadings = Set<Heading.ID>()
            for (headingIndex, heading) in (list.headings ?? []).enumerated() {
                let headingPath = "\(path).headings[\(headingIndex)]"
                guard headingIDs.insert(heading.id).inserted else {
                    throw .invalid(path: headingPath + ".id", reason: "another heading has the id \(heading.id).")
                }
                listHeadings.insert(heading.id)
                do {
                    _ = try Title.validated(heading.title)
                } catch {
                    throw .invalid(path: headingPath + ".title", reason: error.debugDescription)
                }
            }
            if list.canceled == true, list.completedAt == nil {
                throw .invalid(path: path + ".canceled", reason: "only a finished list, with a completedAt, is canceled.")
            }
            for (itemIndex, item) in list.items.enumerated() {
                let itemPath = "\(path).items[\(itemIndex)]"
                guard itemIDs.insert(item.id).inserted else { throw .invalid(path: itemPath + ".id", reason: "another item has the id \(item.id).") }
                if let heading = item.heading, !listHeadings.contains(heading) {
                    throw .invalid(path: itemPath + ".heading", reason: "no heading of its list has the id \(heading).")
                }
                if item.someday == true, item.startDate != nil {
                    throw .invalid(path: itemPath + ".someday", reason: "an item is someday or has a start date, not both.")
                }
                if item.evening == true, item.startDate == nil {
                    throw .invalid(path: itemPath + ".evening", reason: "only an item with a start date is in the evening of it.")
                }
                if let tag = item.tags?.first(where: { !tagIDs.contains($0) }) {
                    throw .invalid(path: itemPath + ".tags", reason: "no tag of the archive has the id \(tag).")
                }
                if item.deadlineDismissed == true, item.deadline == nil {
                    throw .invalid(path: itemPath + ".deadlineDismissed", reason: "only an item with a deadline can have it dismissed.")
                }
                if item.canceled == true, item.completedAt == nil {
                    throw .invalid(path: itemPath + ".canceled", reason: "only a done item, with a completedAt, is canceled.")
                }
                do {
                    _ = try Title.validated(item.title)
                } catch {
                    throw .invalid(path: itemPath + ".title", reason: error.debugDescription)
                }
                for (entryIndex, entry) in (item.checklist ?? []).enumerated() {
                    let entryPath = "\(itemPath).checklist[\(entryIndex)]"
                    guard entryIDs.insert(entry.id).inserted else {
                        throw .invalid(path: entryPath + ".id", reason: "another checklist entry has the id \(entry.id).")
                    }
                    if entry.canceled == true, entry.completedAt == nil {
                        throw .invalid(path: entryPath + ".canceled", reason: "only a done entry, with a completedAt, is canceled.")
                    }
                    do {
                        _ = try Title.validated(entry.title)
                    } catch {
                        throw .invalid(path: entryPath + ".title", reason: error.debugDescription)
                    }
                }
            }
        }
        if let defaultList, !listIDs.contains(defaultList) {
            throw .invalid(path: "defaultList", reason: "no list of the archive has the id \(defaultList).")
        }
        var seriesIDs = Set<Series.ID>()
        for (seriesIndex, series) in (self.series ?? []).enumerated() {
            let path = "series[\(seriesIndex)]"
            guard seriesIDs.insert(series.id).inserted else { throw .invalid(path: path + ".id", reason: "another series has the id \(series.id).") }
            guard listIDs.contains(series.listID) else { throw .invalid(path: path + ".listID", reason: "no list of the archive has the id \(series.listID).") }
            if let heading = series.heading, !headingIDs.contains(heading) {
                throw .invalid(path: path + ".heading", reason: "no heading of the archive has the id \(heading).")
            }
            if let tag = series.tags.first(where: { !tagIDs.contains($0) }) {
                throw .invalid(path: path + ".tags", reason: "no tag of the archive has the id \(tag).")
            }
            let titles = [(path + ".title", series.title)] + series.checklist.enumerated().map { (path + ".checklist[\($0.offset)]", $0.element) }
            for (titlePath, title) in titles {
                do {
                    _ = try Title.validated(title)
                } catch {
                    throw .invalid(path: titlePath, reason: error.debugDescription)
                }
            }
        }
    }

    /// A decoding error as the path of the value at fault and what is wrong with it.
    private static func describe(_ error: DecodingError, in data: Data) -> ArchiveError {
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return .malformed(syntaxError(in: data) ?? context.debugDescription)
        case .dataCorrupted(let context):
            return .invalid(path: path(context.codingPath), reason: context.debugDescription)
        case .keyNotFound(let key, let context):
            return .invalid(path: path(context.codingPath + [key]), reason: "it is missing.")
        case .typeMismatch(_, let context) where context.codingPath.isEmpty:
            return .notAnArchive
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            return .invalid(path: path(context.codingPath), reason: "expected \(Self.describe(type)).")
        @unknown default:
            return .malformed(error.localizedDescription)
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Int64.Type: "a whole number"
        case is Double.Type, is Date.Type: "a number"
        case is [Any].Type: "an array"
        default: "a value of type \(type)"
        }
    }

    /// Where the JSON of `data` goes wrong, as a line and column, from the JSON parser's own
    /// report ("Invalid value around character 15"), or `nil` when the parser finds nothing.
    static func syntaxError(in data: Data) -> String? {
        do {
            _ = try JSONSerialization.jsonObject(with: data)
            return nil
        } catch let error as NSError {
            let reason = error.userInfo[NSDebugDescriptionErrorKey] as? String ?? error.localizedDescription
            if reason.hasPrefix("Unexpected end of file") {
                return "it ends early, at line \(location(ofOffset: data.count, in: data).line): the file may be cut short."
            }
            guard let range = reason.range(of: #"character \d+"#, options: .regularExpression),
                  let offset = Int(reason[range].dropFirst("character ".count))
            else { return reason }
            let (line, column) = location(ofOffset: offset, in: data)
            let what = reason.components(separatedBy: " around ").first ?? reason
            return "line \(line), column \(column): \(what.lowercased())."
        }
    }

    /// The 1-based line and column of a byte offset.
    private static func location(ofOffset offset: Int, in data: Data) -> (line: Int, column: Int) {
        let before = data.prefix(offset)
        let line = before.count(where: { $0 == UInt8(ascii: "\n") }) + 1
        let column = offset - (before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0) + 1
        return (line, column)
    }

    /// `lists[2].items[0].title`.
    private static func path(_ keys: [any CodingKey]) -> String {
        keys.reduce(into: "") { path, key in
            if let index = key.intValue {
                path += "[\(index)]"
            } else {
                path += (path.isEmpty ? "" : ".") + key.stringValue
            }
        }
    }
}

import ArrangeModel
import ArrangeStore
import Foundation
import Testing

/// Arrange's tag, not Swift Testing's.
private typealias Tag = ArrangeModel.Tag

/// The tags every ``ItemRepository`` keeps, checked on each backend: a tree, each tag ordered
/// among its parent's children, names unique ignoring case, a tag deleted with its children.
@Suite("ItemRepository conformance: tags")
struct TagConformanceTests {
    /// Home (Garden, Kitchen), Work, Errand, made in an order other than their keys'.
    private func seeded(_ backend: Backend) throws -> (store: Store, tags: [String: Tag]) {
        let store = try backend.makeStore()
        let home = Tag(name: "Home", sortIndex: 10, createdAt: Sample.date(0))
        let rows = [
            Tag(name: "Work", sortIndex: 20, createdAt: Sample.date(0)), home,
            Tag(name: "Kitchen", parent: home.id, sortIndex: 5, createdAt: Sample.date(0)),
            Tag(name: "Garden", parent: home.id, sortIndex: 1, shortcut: "g", createdAt: Sample.date(0)),
            Tag(name: "Errand", sortIndex: 30, createdAt: Sample.date(0)),
        ]
        try store.repository.write { transaction in
            for tag in rows.sorted(by: { $0.parent == nil && $1.parent != nil }) { try transaction.insert(tag) }
        }
        return (store, Dictionary(uniqueKeysWithValues: rows.map { ($0.name, $0) }))
    }

    @Test("Tags read depth first in hand order, each group by key, and through the generic queries of their orderings", arguments: Backend.allCases)
    func order(backend: Backend) throws {
        let (store, tags) = try seeded(backend)
        try store.repository.read { transaction throws in
            #expect(try transaction.tags().map(\.name) == ["Home", "Garden", "Kitchen", "Work", "Errand"])
            #expect(try transaction.tag(id: try #require(tags["Garden"]).id) == tags["Garden"])
            let home = try #require(tags["Home"]).id
            #expect(try transaction.entries(in: .tags(home), visibility: .all, offset: 0, limit: 10).map(\.id) == ["Garden", "Kitchen"].compactMap { tags[$0]?.id.entryID })
            #expect(try transaction.entries(in: .tags(nil), visibility: .open, offset: 1, limit: 10).map(\.id) == ["Work", "Errand"].compactMap { tags[$0]?.id.entryID })
            #expect(try transaction.entry(id: try #require(tags["Garden"]).id.entryID, in: .tags(nil)) == nil, "a child is not at the top level")
        }
    }

    @Test("Names are unique ignoring case; a parent must exist; a tag moves under another with its key; deleting one deletes its children", arguments: Backend.allCases)
    func rules(backend: Backend) throws {
        let (store, tags) = try seeded(backend)
        let home = try #require(tags["Home"]), garden = try #require(tags["Garden"]), work = try #require(tags["Work"])
        #expect(throws: StoreError.validation(.duplicateTagName("Garden"))) {
            try store.repository.write { try $0.insert(Tag(name: "GARDEN", createdAt: Sample.date(0))) }
        }
        let nowhere = Tag.ID()
        #expect(throws: StoreError.tagNotFound(nowhere)) {
            try store.repository.write { try $0.insert(Tag(name: "Orphan", parent: nowhere, createdAt: Sample.date(0))) }
        }
        try store.repository.write { transaction in
            try transaction.setSortIndices([SortIndexChange(id: garden.id.entryID, sortIndex: 25)], in: .tags(nil), updatedAt: Sample.date(1))
        }
        #expect(try store.repository.read { try $0.tags() }.map(\.name) == ["Home", "Kitchen", "Work", "Garden", "Errand"])
        try store.repository.write { transaction in
            try transaction.setSortIndices([SortIndexChange(id: garden.id.entryID, sortIndex: 0)], in: .tags(work.id), updatedAt: Sample.date(2))
            try transaction.deleteTag(id: home.id)
        }
        #expect(try store.repository.read { try $0.tags() }.map(\.name) == ["Work", "Garden", "Errand"], "Home went with Kitchen; Garden had moved under Work")
        try store.repository.write { try $0.deleteTag(id: work.id) }
        #expect(try store.repository.read { try $0.tags() }.map(\.name) == ["Errand"])
        #expect(throws: StoreError.tagNotFound(work.id)) { try store.repository.write { try $0.deleteTag(id: work.id) } }
    }
}

extension TagConformanceTests {
    @Test("The tags set on items, lists and areas are kept with their rows, change with an update, and the tagged items are found by any of their tags; a merged id names the survivor", arguments: Backend.allCases)
    func uses(backend: Backend) throws {
        let (store, tags) = try seeded(backend)
        let (home, garden, work) = (try #require(tags["Home"]).id, try #require(tags["Garden"]).id, try #require(tags["Work"]).id)
        let area = Area(name: "Office", createdAt: Sample.date(0), tags: [work])
        let list = ItemList(name: "Chores", createdAt: Sample.date(0), sortIndex: 0, area: area.id, tags: [home])
        let mow = Item(listID: list.id, title: "Mow", sortIndex: 0, createdAt: Sample.date(0), tags: [garden, home])
        let call = Item(listID: list.id, title: "Call", sortIndex: 1, createdAt: Sample.date(0), tags: [work])
        let plain = Item(listID: list.id, title: "Plain", sortIndex: 2, createdAt: Sample.date(0))
        try store.repository.write { transaction in
            try transaction.insert(area)
            try transaction.insert(list)
            for item in [mow, call, plain] { try transaction.insert(item) }
        }
        try store.repository.read { transaction throws in
            #expect(try transaction.item(id: mow.id)?.tags == [garden, home])
            #expect(try transaction.lists().first { $0.id == list.id }?.tags == [home], "the sidebar's read carries them")
            #expect(try transaction.area(id: area.id)?.tags == [work])
            #expect(Set(try transaction.items(.tagged([garden])).map(\.id)) == [mow.id])
            #expect(Set(try transaction.items(.tagged([garden, work])).map(\.id)) == [mow.id, call.id])
            #expect(try transaction.items(.tagged([])).isEmpty)
        }
        try store.repository.write { transaction in
            var changed = try #require(try transaction.item(id: mow.id))
            changed.tags = [work]
            try transaction.update(changed)
            var untagged = try #require(try transaction.list(id: list.id))
            untagged.tags = []
            try transaction.update(untagged)
        }
        try store.repository.read { transaction throws in
            #expect(try transaction.items(.tagged([garden])).isEmpty, "the update took the old tags off")
            #expect(Set(try transaction.items(.tagged([work])).map(\.id)) == [mow.id, call.id])
            #expect(try transaction.list(id: list.id)?.tags == [])
        }
        let merged = Tag.ID()
        try store.repository.write { try $0.mergeTag(merged, into: work) }
        try store.repository.read { transaction throws in
            #expect(try transaction.tag(id: merged)?.id == work)
            #expect(try transaction.tagMerges() == [TagMerge(id: merged, into: work)])
        }
        try store.repository.write { try $0.apply(.unmergeTag(merged)) }
        #expect(try store.repository.read { try $0.tag(id: merged) } == nil)
    }
}

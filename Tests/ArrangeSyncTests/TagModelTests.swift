import ArrangeIntents
import ArrangeModel
import ArrangeOrdering
import ArrangeStore
import Foundation
import Testing

/// Arrange's tag, not Swift Testing's.
private typealias Tag = ArrangeModel.Tag

/// Random sessions of tags, on both backends, against plain values: the tree as a parent for
/// each tag and an array of children for each parent, and the tags set on each item, list and
/// area as sets. After each step the tree read depth first is the model's, every thing carries
/// the model's tags, and each view, filtered by one or two random tags, shows exactly the items a
/// brute force of the filter's rule keeps: every tag named carried by the item, its list or its
/// list's area, the tag itself or one under it.
@Suite("Model-based: tags and the filters by tag")
struct TagModelTests {
    @Test("Creating, moving, deleting and setting tags keep the tree, the tags on things and every filtered view the model's", arguments: StoreKind.allCases, 0..<4)
    func randomSessions(kind: StoreKind, seed: UInt64) async throws {
        var random = SeededRandomNumberGenerator(seed: seed)
        let environment = try IntentEnvironment(repository: try kind.makeRepository())
        // Two areas, three lists (one in each area, one in none), four items in each list.
        var areas: [Area.ID] = []
        for name in ["Home", "Work"] { areas.append(try await CreateArea(name: name).perform(in: environment).area.id) }
        var lists: [ItemList.ID] = []
        for (name, area) in [("Chores", areas[0]), ("Launch", areas[1]), ("Loose", nil)] as [(String, Area.ID?)] {
            lists.append(try await CreateList(name: name, in: ListGroup(area)).perform(in: environment).list.id)
        }
        var items: [Item.ID] = []
        for list in lists {
            for index in 0..<4 { items.append(try await AddItem(title: "I\(index)", list: list).perform(in: environment).items[0].id) }
        }
        let areaOfList: [ItemList.ID: Area.ID] = [lists[0]: areas[0], lists[1]: areas[1]]
        // The model.
        var children: [Tag.ID?: [Tag.ID]] = [:]
        var parent: [Tag.ID: Tag.ID] = [:]
        var onItems: [Item.ID: Set<Tag.ID>] = [:], onLists: [ItemList.ID: Set<Tag.ID>] = [:], onAreas: [Area.ID: Set<Tag.ID>] = [:]
        var made = 0
        var log: [String] = []
        func allTags() -> [Tag.ID] {
            func subtree(_ of: Tag.ID?) -> [Tag.ID] { (children[of] ?? []).flatMap { [$0] + subtree($0) } }
            return subtree(nil)
        }
        func descendants(_ tag: Tag.ID) -> Set<Tag.ID> { (children[tag] ?? []).reduce(into: [tag]) { $0.formUnion(descendants($1)) } }
        for _ in 0..<60 {
            let tags = allTags()
            switch Int.random(in: 0..<10, using: &random) {
            case 0, 1:
                made += 1
                let under = tags.isEmpty || Bool.random(using: &random) ? nil : tags.randomElement(using: &random)
                let tag = try await CreateTag(name: "T\(made)", in: TagGroup(under)).perform(in: environment).tag.id
                children[under, default: []].append(tag)
                if let under { parent[tag] = under }
                log.append("create T\(made) under \(under.map { "\($0)" } ?? "top")")
            case 2:
                guard let tag = tags.randomElement(using: &random) else { continue }
                let target = Bool.random(using: &random) ? nil : tags.randomElement(using: &random)
                do {
                    _ = try await MoveTag(tag, to: .top, in: TagGroup(target)).perform(in: environment)
                    #expect(target.map { !descendants(tag).contains($0) } ?? true, "a cycle is refused: \(log)")
                    children[parent[tag]]?.removeAll { $0 == tag }
                    children[target, default: []].insert(tag, at: 0)
                    parent[tag] = target
                    log.append("move \(tag) under \(target.map { "\($0)" } ?? "top")")
                } catch IntentError.tagCycle {
                    #expect(target.map(descendants(tag).contains) == true, "only a cycle is refused: \(log)")
                }
            case 3:
                guard let tag = tags.randomElement(using: &random) else { continue }
                _ = try await DeleteTag(tag: tag).perform(in: environment)
                let gone = descendants(tag)
                children[parent[tag]]?.removeAll { $0 == tag }
                for id in gone { (children[id], parent[id]) = (nil, nil) }
                for key in onItems.keys { onItems[key]?.subtract(gone) }
                for key in onLists.keys { onLists[key]?.subtract(gone) }
                for key in onAreas.keys { onAreas[key]?.subtract(gone) }
                log.append("delete \(tag)")
            default:
                guard let tag = tags.randomElement(using: &random) else { continue }
                let removing = Int.random(in: 0..<4, using: &random) == 0
                switch Int.random(in: 0..<6, using: &random) {
                case 0:
                    let list = lists.randomElement(using: &random) ?? lists[0]
                    _ = try await (removing ? RemoveTags([tag], from: .list(list)).perform(in: environment) : AddTags([tag], to: .list(list)).perform(in: environment))
                    if removing { onLists[list]?.remove(tag) } else { onLists[list, default: []].insert(tag) }
                case 1:
                    let area = areas.randomElement(using: &random) ?? areas[0]
                    _ = try await (removing ? RemoveTags([tag], from: .area(area)).perform(in: environment) : AddTags([tag], to: .area(area)).perform(in: environment))
                    if removing { onAreas[area]?.remove(tag) } else { onAreas[area, default: []].insert(tag) }
                default:
                    let chosen = Array(items.shuffled(using: &random).prefix(Int.random(in: 1...3, using: &random)))
                    _ = try await (removing ? RemoveTags([tag], from: .items(chosen)).perform(in: environment) : AddTags([tag], to: .items(chosen)).perform(in: environment))
                    for item in chosen { if removing { onItems[item]?.remove(tag) } else { onItems[item, default: []].insert(tag) } }
                }
                log.append("\(removing ? "untag" : "tag") \(tag)")
            }

            // The tree, depth first in hand order.
            let read = try await GetTags().perform(in: environment).tags
            #expect(read.map(\.id) == allTags(), "\(log)")
            #expect(read.map(\.parent) == allTags().map { parent[$0] }, "\(log)")
            // The tags on things.
            let shown = try await lists.asyncFlatMap { try await ListItems(list: $0).perform(in: environment).items }
            for item in shown { #expect(Set(item.tags) == onItems[item.id] ?? [], "\(log)") }
            let listsNow = try await GetLists().perform(in: environment).lists
            for list in listsNow where lists.contains(list.id) { #expect(Set(list.tags) == onLists[list.id] ?? [], "\(log)") }
            for area in try await GetAreas().perform(in: environment).areas { #expect(Set(area.tags) == onAreas[area.id] ?? [], "\(log)") }

            // The filters: one or two tags, against the brute force of the rule.
            guard !allTags().isEmpty else { continue }
            let named = Array(allTags().shuffled(using: &random).prefix(Int.random(in: 1...2, using: &random)))
            func passes(_ item: ItemSummary) -> Bool {
                named.allSatisfy { tag in
                    let required = descendants(tag)
                    let carried = (onItems[item.id] ?? []).union(onLists[item.list] ?? []).union(areaOfList[item.list].flatMap { onAreas[$0] } ?? [])
                    return !carried.isDisjoint(with: required)
                }
            }
            for list in lists {
                let all = try await ListItems(list: list).perform(in: environment).items
                let filtered = try await ListItems(list: list, tags: named).perform(in: environment).items
                #expect(filtered.map(\.id) == all.filter(passes).map(\.id), "list filtered by \(named): \(log)")
                #expect(filtered.map(\.position) == all.filter(passes).map(\.position), "#N as in the whole list")
            }
            let anytime = try await ShowAnytime(tags: named).perform(in: environment).lists.flatMap(\.items).map(\.id)
            let everything = try await ShowAnytime().perform(in: environment).lists.flatMap(\.items)
            #expect(anytime == everything.filter(passes).map(\.id), "Anytime filtered by \(named): \(log)")
            let found = try await Search(query: "I", limit: 100, tags: named).perform(in: environment).items.map(\.item.id)
            #expect(Set(found) == Set(everything.filter(passes).map(\.id)), "search filtered by \(named): \(log)")
        }
    }
}

extension Array {
    /// The elements' results, one after another, each awaited in order.
    fileprivate func asyncFlatMap<Result>(_ transform: (Element) async throws -> [Result]) async rethrows -> [Result] {
        var results: [Result] = []
        for element in self { results += try await transform(element) }
        return results
    }
}

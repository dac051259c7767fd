import ArrangeModel

/// One ordering (an ``OrderScope``): a persistent treap of ``OrderKey``s with subtree counts.
///
/// Nodes are immutable and shared between versions, so copying a tree is O(1) and every
/// change copies only the O(log n) nodes on its path. A transaction can therefore keep
/// the tree it started from and return to it when it rolls back.
///
/// Priorities come from a hash of the item's id, so the tree's shape depends only on
/// its keys and tests are repeatable.
struct OrderTree: Sendable {
    private var root: Node?

    /// The number of keys under `visibility`.
    /// - Complexity: O(1).
    func count(_ visibility: ItemVisibility) -> Int {
        root?.count(visibility) ?? 0
    }

    /// The number of keys under `visibility` strictly before `key`: its rank.
    /// - Complexity: O(log n) expected.
    func count(_ visibility: ItemVisibility, before key: OrderKey) -> Int {
        var count = 0
        var node = root
        while let current = node {
            if current.key < key {
                count += (current.left?.count(visibility) ?? 0) + (current.isSeen(under: visibility) ? 1 : 0)
                node = current.right
            } else {
                node = current.left
            }
        }
        return count
    }

    /// Adds an entry.
    /// - Complexity: O(log n) expected.
    mutating func insert(_ entry: OrderEntry) {
        let (lower, upper) = Node.split(root, at: entry.key, keepingKeyLeft: false)
        let single = Node(key: entry.key, isOpen: entry.isOpen, isTrashed: entry.isTrashed, left: nil, right: nil)
        root = Node.merge(Node.merge(lower, single), upper)
    }

    /// Removes a key if present.
    /// - Complexity: O(log n) expected.
    mutating func remove(_ key: OrderKey) {
        let (lower, rest) = Node.split(root, at: key, keepingKeyLeft: false)
        let (_, upper) = Node.split(rest, at: key, keepingKeyLeft: true)
        root = Node.merge(lower, upper)
    }

    /// Up to `limit` entries strictly after `key`, nearest first.
    /// - Complexity: O(log n + limit).
    func entries(after key: OrderKey, limit: Int) -> [OrderEntry] {
        var walk = InOrderWalk(descending: false)
        walk.descend(from: root) { $0.key > key }
        return walk.take(limit, where: { _ in true })
    }

    /// Up to `limit` entries from `key` on, `key` included, nearest first.
    /// - Complexity: O(log n + limit).
    func entries(from key: OrderKey, limit: Int) -> [OrderEntry] {
        var walk = InOrderWalk(descending: false)
        walk.descend(from: root) { $0.key >= key }
        return walk.take(limit, where: { _ in true })
    }

    /// Up to `limit` entries strictly before `key`, nearest first.
    /// - Complexity: O(log n + limit).
    func entries(before key: OrderKey, limit: Int) -> [OrderEntry] {
        var walk = InOrderWalk(descending: true)
        walk.descend(from: root) { $0.key < key }
        return walk.take(limit, where: { _ in true })
    }

    /// Up to `limit` entries seen under `visibility`, skipping the first `offset` of them.
    /// - Complexity: O(log n + limit + hidden entries passed over).
    func entries(_ visibility: ItemVisibility, offset: Int, limit: Int) -> [OrderEntry] {
        guard offset >= 0, offset < count(visibility), limit > 0 else { return [] }
        var walk = InOrderWalk(descending: false)
        walk.descend(toRank: offset, visibility: visibility, from: root)
        return walk.take(limit, where: { $0.isSeen(under: visibility) })
    }

    /// Every entry in order.
    ///
    /// The walk starts at the first key itself, not after ``OrderKey/beforeAll``: an item may
    /// have that very key (sort index `Int64.min`, the all-zero id).
    /// - Complexity: O(n).
    func allEntries() -> [OrderEntry] {
        var walk = InOrderWalk(descending: false)
        walk.descend(from: root) { _ in true }
        return walk.take(count(.all), where: { _ in true })
    }

    /// Stops the process unless the tree is well formed, as the `_checkInvariants()` of
    /// swift-collections' structures does. Tests call it after every change.
    ///
    /// It checks that keys rise strictly in order, that no node's priority is below a
    /// child's (heap order) and each is the hash of the node's id, and that each node's
    /// `count`, `openCount` and `keptCount` are those of its subtree.
    /// - Complexity: O(n).
    func _checkInvariants() {
        _ = root?.checkInvariants(after: nil, before: nil)
    }
}

extension OrderTree {
    final class Node: Sendable {
        let key: OrderKey
        let isOpen: Bool
        let isTrashed: Bool
        let priority: UInt64
        let left: Node?
        let right: Node?
        /// The keys of the subtree.
        let count: Int
        /// The keys of the subtree that are open and out of the Trash.
        let openCount: Int
        /// The keys of the subtree that are out of the Trash.
        let keptCount: Int

        init(key: OrderKey, isOpen: Bool, isTrashed: Bool, priority: UInt64? = nil, left: Node?, right: Node?) {
            self.key = key
            self.isOpen = isOpen
            self.isTrashed = isTrashed
            self.priority = priority ?? Self.priority(of: key.id)
            self.left = left
            self.right = right
            self.count = 1 + (left?.count ?? 0) + (right?.count ?? 0)
            self.openCount = (isOpen && !isTrashed ? 1 : 0) + (left?.openCount ?? 0) + (right?.openCount ?? 0)
            self.keptCount = (isTrashed ? 0 : 1) + (left?.keptCount ?? 0) + (right?.keptCount ?? 0)
        }

        func count(_ visibility: ItemVisibility) -> Int {
            switch visibility {
            case .all: count
            case .open: openCount
            case .openAndCompleted: keptCount
            }
        }

        /// Whether this node's own entry is seen under `visibility`.
        func isSeen(under visibility: ItemVisibility) -> Bool {
            switch visibility {
            case .all: true
            case .open: isOpen && !isTrashed
            case .openAndCompleted: !isTrashed
            }
        }

        /// The entry this node holds.
        var entry: OrderEntry { OrderEntry(id: key.id, sortIndex: key.sortIndex, isOpen: isOpen, isTrashed: isTrashed) }

        /// Checks the invariants of ``OrderTree/_checkInvariants()`` in this subtree, whose keys
        /// must lie strictly between `lower` and `upper`.
        ///
        /// - Returns: The number of keys in the subtree, of open ones and of those out of the Trash.
        func checkInvariants(after lower: OrderKey?, before upper: OrderKey?) -> (count: Int, openCount: Int, keptCount: Int) {
            precondition(lower.map { $0 < key } ?? true, "key \(key) is not after \(String(describing: lower))")
            precondition(upper.map { key < $0 } ?? true, "key \(key) is not before \(String(describing: upper))")
            precondition(priority == Self.priority(of: key.id), "the priority of \(key) is not its id's")
            for child in [left, right] {
                precondition(child.map { $0.priority <= priority } ?? true, "a child of \(key) has a higher priority")
            }
            let below = left?.checkInvariants(after: lower, before: key) ?? (count: 0, openCount: 0, keptCount: 0)
            let above = right?.checkInvariants(after: key, before: upper) ?? (count: 0, openCount: 0, keptCount: 0)
            precondition(count == 1 + below.count + above.count, "the count of \(key) is not its subtree's")
            precondition(openCount == (isOpen && !isTrashed ? 1 : 0) + below.openCount + above.openCount, "the open count of \(key) is not its subtree's")
            precondition(keptCount == (isTrashed ? 0 : 1) + below.keptCount + above.keptCount, "the kept count of \(key) is not its subtree's")
            return (count, openCount, keptCount)
        }

        /// A copy of this node with other children.
        func with(left: Node?, right: Node?) -> Node {
            Node(key: key, isOpen: isOpen, isTrashed: isTrashed, priority: priority, left: left, right: right)
        }

        /// Splits a tree into the keys before `key` and the rest; with `keepingKeyLeft`,
        /// `key` itself goes to the left part.
        static func split(_ node: Node?, at key: OrderKey, keepingKeyLeft: Bool) -> (Node?, Node?) {
            guard let node else { return (nil, nil) }
            let goesLeft = keepingKeyLeft ? node.key <= key : node.key < key
            if goesLeft {
                let (middle, upper) = split(node.right, at: key, keepingKeyLeft: keepingKeyLeft)
                return (node.with(left: node.left, right: middle), upper)
            } else {
                let (lower, middle) = split(node.left, at: key, keepingKeyLeft: keepingKeyLeft)
                return (lower, node.with(left: middle, right: node.right))
            }
        }

        /// Joins two trees, every key of `lower` being before every key of `upper`.
        static func merge(_ lower: Node?, _ upper: Node?) -> Node? {
            guard let lower else { return upper }
            guard let upper else { return lower }
            if lower.priority > upper.priority {
                return lower.with(left: lower.left, right: merge(lower.right, upper))
            } else {
                return upper.with(left: merge(lower, upper.left), right: upper.right)
            }
        }

        /// A hash of the id's 128 bits, well spread even for sequential ids: the first draw of
        /// ``SeededRandomNumberGenerator`` (SplitMix64) seeded with one half, mixed with the
        /// other half and drawn again.
        static func priority(of id: OrderEntry.ID) -> UInt64 {
            let (high, low) = id.halves
            var first = SeededRandomNumberGenerator(seed: high)
            var second = SeededRandomNumberGenerator(seed: first.next() ^ low)
            return second.next()
        }
    }

    /// An in-order walk over a tree, forwards or backwards, driven by an explicit stack.
    struct InOrderWalk {
        let descending: Bool
        private var stack: [Node] = []

        init(descending: Bool) {
            self.descending = descending
        }

        private func near(_ node: Node) -> Node? { descending ? node.right : node.left }
        private func far(_ node: Node) -> Node? { descending ? node.left : node.right }

        /// Positions the walk at the first node (in walking order) that satisfies `isAhead`,
        /// which must hold for a suffix of the walking order.
        mutating func descend(from root: Node?, isAhead: (Node) -> Bool) {
            var node = root
            while let current = node {
                if isAhead(current) {
                    stack.append(current)
                    node = near(current)
                } else {
                    node = far(current)
                }
            }
        }

        /// Positions a forward walk at the node of 0-based `rank` among the nodes seen under `visibility`.
        mutating func descend(toRank rank: Int, visibility: ItemVisibility, from root: Node?) {
            var remaining = rank
            var node = root
            while let current = node {
                let leftCount = current.left?.count(visibility) ?? 0
                let selfCount = current.isSeen(under: visibility) ? 1 : 0
                if remaining < leftCount {
                    stack.append(current)
                    node = current.left
                } else if remaining < leftCount + selfCount {
                    stack.append(current)
                    return
                } else {
                    remaining -= leftCount + selfCount
                    node = current.right
                }
            }
        }

        /// Takes up to `limit` entries of nodes that satisfy `include`, in walking order.
        mutating func take(_ limit: Int, where include: (Node) -> Bool) -> [OrderEntry] {
            var entries: [OrderEntry] = []
            while entries.count < limit, let node = stack.popLast() {
                if include(node) { entries.append(node.entry) }
                var next = far(node)
                while let current = next {
                    stack.append(current)
                    next = near(current)
                }
            }
            return entries
        }
    }
}

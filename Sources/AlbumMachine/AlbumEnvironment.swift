/// What `reduce` needs from outside: the current setting and a page picker tests can control.
public struct AlbumEnvironment: Sendable {
    /// Photos per collection (the setting, within `Settings.photosPerCollectionRange`); each new collection records it.
    public var perPage: Int
    /// Picks New Collection's page in 1...pageCount, other than `current`; called only when pageCount > 1.
    public var pickPage: @Sendable (_ current: Int, _ pageCount: Int) -> Int

    public init(perPage: Int, pickPage: @escaping @Sendable (_ current: Int, _ pageCount: Int) -> Int) {
        self.perPage = perPage
        self.pickPage = pickPage
    }

    /// A uniformly random page other than the current one.
    public static func live(perPage: Int) -> AlbumEnvironment {
        AlbumEnvironment(perPage: perPage) { current, pageCount in
            guard pageCount > 1 else { return 1 }
            guard (1...pageCount).contains(current) else { return Int.random(in: 1...pageCount) }
            let other = Int.random(in: 1..<pageCount)
            return other >= current ? other + 1 : other
        }
    }
}

import CLMDB

/// A named sub-database of an `Environment` (an `MDB_dbi`). Handles stay valid for the life
/// of the environment once the transaction that opened them has committed.
public struct Database: Sendable, Hashable {
    public let name: String
    let dbi: MDB_dbi

    init(name: String, dbi: MDB_dbi) {
        self.name = name
        self.dbi = dbi
    }
}

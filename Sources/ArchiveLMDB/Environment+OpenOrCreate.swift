import LMDB

extension Environment {
    /// The named database, created only when it does not exist yet (so an archive opened
    /// read-only still opens what is there).
    func openOrCreate(_ name: String) throws -> Database {
        do {
            return try database(name)
        } catch let e as LMDBError where e == .notFound && !options.readOnly {
            return try database(name, create: true)
        }
    }
}

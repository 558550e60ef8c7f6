import Archive

// The filter and answers of a record query are the `Archive` target's (the record-store
// protocol speaks them); these names keep them reachable to every module that imports Query.

/// `Archive.RecordFilter`.
public typealias RecordFilter = Archive.RecordFilter
/// `Archive.QueryResult`.
public typealias QueryResult = Archive.QueryResult
/// `Archive.QueryCount`.
public typealias QueryCount = Archive.QueryCount

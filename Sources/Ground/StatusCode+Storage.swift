/// The storage layer's codes in the one table (`StatusCode`, StatusCode.swift): the archive's
/// PostgreSQL schema and rows, the LMDB content store and index, HTTP, PostgreSQL connections,
/// the work queue and the S3 object store. Same rules as the rest of the table: named after the
/// code, never spelled anywhere else, never interpolated.
extension StatusCode {
    // MARK: archive.* (the PostgreSQL schema and rows, docs/postgres.md)
    public static let archiveRowDamaged = "archive.row.damaged"
    public static let archiveBlobsMarkLost = "archive.blobs.markLost"
    public static let archiveSchemaMigrationsOutOfOrder = "archive.schema.migrationsOutOfOrder"
    public static let archiveSchemaMissing = "archive.schema.missing"
    public static let archiveSchemaNamespaceInvalid = "archive.schema.namespace.invalid"
    public static let archiveSchemaTooNew = "archive.schema.tooNew"
    public static let archiveSchemaTooOld = "archive.schema.tooOld"

    // MARK: cas.*
    public static let casBadID = "cas.badID"
    public static let casBlobMismatch = "cas.blob.mismatch"
    public static let casChunkDamaged = "cas.chunk.damaged"
    public static let casChunkMissing = "cas.chunk.missing"
    public static let casInput = "cas.input"
    public static let casNotAnArchive = "cas.notAnArchive"
    public static let casNotFound = "cas.notFound"
    public static let casRangeInvalid = "cas.range.invalid"
    public static let casOutputRefused = "cas.output.refused"
    public static let casReadOnly = "cas.readOnly"
    public static let casRecordDamaged = "cas.record.damaged"
    public static let casStorage = "cas.storage"
    public static let casStorageBusy = "cas.storage.busy"
    public static let casStorageDiskFull = "cas.storage.diskFull"
    public static let casStorageInvalid = "cas.storage.invalid"
    public static let casStorageNotAFile = "cas.storage.notAFile"
    public static let casStoragePermissionDenied = "cas.storage.permissionDenied"
    public static let casUnsupportedFormat = "cas.unsupportedFormat"

    // MARK: http.*
    public static let httpBodyShort = "http.body.short"
    public static let httpConnect = "http.connect"
    public static let httpRequest = "http.request"
    public static let httpReset = "http.reset"
    public static let httpResponseMalformed = "http.response.malformed"
    public static let httpTimeout = "http.timeout"
    public static let httpTls = "http.tls"
    public static let httpTransport = "http.transport"

    // MARK: index.*
    public static let indexFieldInvalid = "index.field.invalid"
    public static let indexPrefixAmbiguous = "index.prefix.ambiguous"
    /// A stored record does not decode, or its body or report no longer matches its SHA-256.
    public static let indexRecordBlobMissing = "index.record.blobMissing"
    public static let indexRecordDamaged = "index.record.damaged"
    public static let indexRecordNotFound = "index.record.notFound"
    public static let indexRecordIdInvalid = "index.recordId.invalid"
    public static let indexStorage = "index.storage"
    public static let indexStorageDiskFull = "index.storage.diskFull"
    public static let indexUnsupportedFormat = "index.unsupportedFormat"

    // MARK: pg.* (PostgreSQL connections and statements, docs/postgres.md)
    public static let pgAuthentication = "pg.authentication"
    public static let pgCanceled = "pg.canceled"
    public static let pgCommitUnknown = "pg.commit.unknown"
    public static let pgConnectionFailed = "pg.connection.failed"
    public static let pgConnectionLost = "pg.connection.lost"
    public static let pgConnectionStringInvalid = "pg.connectionString.invalid"
    public static let pgConstraint = "pg.constraint"
    public static let pgConstraintCheck = "pg.constraint.check"
    public static let pgConstraintForeignKey = "pg.constraint.foreignKey"
    public static let pgConstraintNotNull = "pg.constraint.notNull"
    public static let pgConstraintUnique = "pg.constraint.unique"
    public static let pgDeadlock = "pg.deadlock"
    public static let pgDiskFull = "pg.diskFull"
    public static let pgLockNotAvailable = "pg.lock.notAvailable"
    public static let pgMisuse = "pg.misuse"
    public static let pgParameterInvalid = "pg.parameter.invalid"
    public static let pgResultMalformed = "pg.result.malformed"
    public static let pgSerialization = "pg.serialization"
    public static let pgServer = "pg.server"
    public static let pgTransactionAborted = "pg.transaction.aborted"

    // MARK: queue.* (the PostgreSQL work queue, docs/postgres.md)
    public static let queueDuplicate = "queue.duplicate"
    public static let queueLeaseLost = "queue.lease.lost"
    public static let queuePayloadInvalid = "queue.payload.invalid"

    // MARK: s3.*
    public static let s3AccessDenied = "s3.accessDenied"
    public static let s3BucketNotFound = "s3.bucket.notFound"
    public static let s3Configuration = "s3.configuration"
    public static let s3CredentialsMissing = "s3.credentials.missing"
    public static let s3CredentialsRejected = "s3.credentials.rejected"
    public static let s3Input = "s3.input"
    public static let s3IntegrityMismatch = "s3.integrity.mismatch"
    public static let s3IntegrityRejected = "s3.integrity.rejected"
    public static let s3NotFound = "s3.notFound"
    public static let s3ObjectLockUnsupported = "s3.objectLock.unsupported"
    public static let s3RangeInvalid = "s3.range.invalid"
    public static let s3Rejected = "s3.rejected"
    public static let s3ResponseMalformed = "s3.response.malformed"
    public static let s3Unavailable = "s3.unavailable"
}

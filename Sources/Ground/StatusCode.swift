/// Every status code the archive emits, one named constant each, in this one file (as
/// c2pa-rs's `validation_status.rs`): the C2PA and CAWG codes the validator reports (the
/// specification's own strings, `claimSignature.validated`, `assertion.dataHash.mismatch`, …)
/// and every project code of a typed error (`io.*`, `verify.*`, `cas.*`, `index.*`,
/// `ingest.*`, `export.*`, `media.*`, `bag.*`, `custody.*`, `record.*`, …). Codes are stable:
/// tests, scripts and the documentation compare against these strings, so a code is added
/// here, never spelled anywhere else, and never built by string interpolation.
///
/// Naming: the code's dot-, dash- and underscore-separated words in camel case
/// (`cas.chunk.missing` → `casChunkMissing`, `cawg.ica.valid_from.invalid` →
/// `cawgIcaValidFromInvalid`).
public enum StatusCode {
    // MARK: algorithm.*
    public static let algorithmUnsupported = "algorithm.unsupported"

    // MARK: anchors.*
    public static let anchorsAdd = "anchors.add"
    public static let anchorsAlloc = "anchors.alloc"
    public static let anchorsUnreadable = "anchors.unreadable"

    // MARK: archive.* (the PostgreSQL schema and rows, docs/postgres.md)
    public static let archiveRowDamaged = "archive.row.damaged"
    public static let archiveSchemaMigrationsOutOfOrder = "archive.schema.migrationsOutOfOrder"
    public static let archiveSchemaMissing = "archive.schema.missing"
    public static let archiveSchemaNamespaceInvalid = "archive.schema.namespace.invalid"
    public static let archiveSchemaTooNew = "archive.schema.tooNew"
    public static let archiveSchemaTooOld = "archive.schema.tooOld"

    // MARK: assertion.*
    public static let assertionActionMalformed = "assertion.action.malformed"
    public static let assertionBmffHashMalformed = "assertion.bmffHash.malformed"
    public static let assertionBmffHashMatch = "assertion.bmffHash.match"
    public static let assertionBmffHashMismatch = "assertion.bmffHash.mismatch"
    public static let assertionDataHashAdditionalExclusionsPresent = "assertion.dataHash.additionalExclusionsPresent"
    public static let assertionDataHashMalformed = "assertion.dataHash.malformed"
    public static let assertionDataHashMatch = "assertion.dataHash.match"
    public static let assertionDataHashMismatch = "assertion.dataHash.mismatch"
    public static let assertionHashedURIMatch = "assertion.hashedURI.match"
    public static let assertionHashedURIMismatch = "assertion.hashedURI.mismatch"
    public static let assertionIngredientMalformed = "assertion.ingredient.malformed"
    public static let assertionMissing = "assertion.missing"
    public static let assertionMultipleHardBindings = "assertion.multipleHardBindings"
    public static let assertionRequiredMissing = "assertion.required.missing"

    // MARK: authorityKeyIdentifier.*
    public static let authorityKeyIdentifierMissing = "authorityKeyIdentifier.missing"

    // MARK: bag.*
    public static let bagManifestMalformed = "bag.manifestMalformed"
    public static let bagNotABag = "bag.notABag"
    public static let bagOxumMismatch = "bag.oxumMismatch"
    public static let bagPayloadChanged = "bag.payloadChanged"
    public static let bagPayloadMissing = "bag.payloadMissing"
    public static let bagPayloadUnlisted = "bag.payloadUnlisted"
    public static let bagTagFileChanged = "bag.tagFileChanged"
    public static let bagTagFileMissing = "bag.tagFileMissing"
    public static let bagTagFileUnlisted = "bag.tagFileUnlisted"

    // MARK: basicConstraints.*
    public static let basicConstraintsIsCA = "basicConstraints.isCA"

    // MARK: bio.*
    public static let bioAlloc = "bio.alloc"
    public static let bioWrite = "bio.write"

    // MARK: build.*
    public static let buildLayoutUnstable = "build.layoutUnstable"
    public static let buildNoParentManifest = "build.noParentManifest"

    // MARK: builder.*
    public static let builderAlloc = "builder.alloc"
    public static let builderEncode = "builder.encode"
    public static let builderExtension = "builder.extension"
    public static let builderField = "builder.field"
    public static let builderName = "builder.name"
    public static let builderSign = "builder.sign"
    public static let builderValidity = "builder.validity"

    // MARK: cas.*
    public static let casBadID = "cas.badID"
    public static let casBlobMismatch = "cas.blob.mismatch"
    public static let casChunkDamaged = "cas.chunk.damaged"
    public static let casChunkMissing = "cas.chunk.missing"
    public static let casInput = "cas.input"
    public static let casNotAnArchive = "cas.notAnArchive"
    public static let casNotFound = "cas.notFound"
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

    // MARK: cawg.*
    public static let cawgIcaCredentialValid = "cawg.ica.credential_valid"
    public static let cawgIcaDidUnavailable = "cawg.ica.did_unavailable"
    public static let cawgIcaInvalidAlg = "cawg.ica.invalid_alg"
    public static let cawgIcaInvalidContentType = "cawg.ica.invalid_content_type"
    public static let cawgIcaInvalidCoseSign1 = "cawg.ica.invalid_cose_sign1"
    public static let cawgIcaInvalidDidDocument = "cawg.ica.invalid_did_document"
    public static let cawgIcaInvalidIssuer = "cawg.ica.invalid_issuer"
    public static let cawgIcaInvalidVerifiableCredential = "cawg.ica.invalid_verifiable_credential"
    public static let cawgIcaSignatureMismatch = "cawg.ica.signature_mismatch"
    public static let cawgIcaSignerPayloadMismatch = "cawg.ica.signer_payload.mismatch"
    public static let cawgIcaTimeStampInvalid = "cawg.ica.time_stamp.invalid"
    public static let cawgIcaTimeStampValidated = "cawg.ica.time_stamp.validated"
    public static let cawgIcaUntrustedIssuer = "cawg.ica.untrusted_issuer"
    public static let cawgIcaValidFromInvalid = "cawg.ica.valid_from.invalid"
    public static let cawgIcaValidFromMissing = "cawg.ica.valid_from.missing"
    public static let cawgIcaValidUntilInvalid = "cawg.ica.valid_until.invalid"
    public static let cawgIdentityAssertionDuplicate = "cawg.identity.assertion.duplicate"
    public static let cawgIdentityAssertionMismatch = "cawg.identity.assertion.mismatch"
    public static let cawgIdentityHardBindingMissing = "cawg.identity.hard_binding_missing"
    public static let cawgIdentityPadInvalid = "cawg.identity.pad.invalid"
    public static let cawgIdentitySigTypeUnknown = "cawg.identity.sig_type.unknown"
    public static let cawgIdentityWellFormed = "cawg.identity.well-formed"
    public static let cawgX509AlgorithmUnsupported = "cawg.x509.algorithm.unsupported"
    public static let cawgX509CredentialInvalid = "cawg.x509.credential.invalid"
    public static let cawgX509CredentialTrusted = "cawg.x509.credential.trusted"
    public static let cawgX509CredentialUntrusted = "cawg.x509.credential.untrusted"
    public static let cawgX509SignatureMismatch = "cawg.x509.signature.mismatch"
    public static let cawgX509SignatureOutsideValidity = "cawg.x509.signature.outside_validity"
    public static let cawgX509SignatureValidated = "cawg.x509.signature.validated"

    // MARK: cbor.*
    public static let cborBreakOutsideIndefinite = "cbor.breakOutsideIndefinite"
    public static let cborDepthExceeded = "cbor.depthExceeded"
    public static let cborInvalidIndefinite = "cbor.invalidIndefinite"
    public static let cborInvalidSimple = "cbor.invalidSimple"
    public static let cborInvalidUTF8 = "cbor.invalidUTF8"
    public static let cborLengthTooLarge = "cbor.lengthTooLarge"
    public static let cborReservedAdditionalInfo = "cbor.reservedAdditionalInfo"
    public static let cborTrailingBytes = "cbor.trailingBytes"
    public static let cborTruncated = "cbor.truncated"

    // MARK: claim.*
    public static let claimBadField = "claim.badField"
    public static let claimHardBindingsMissing = "claim.hardBindings.missing"
    public static let claimMalformed = "claim.malformed"
    public static let claimMissing = "claim.missing"
    public static let claimMissingField = "claim.missingField"
    public static let claimNotAMap = "claim.notAMap"
    public static let claimUnknownLabel = "claim.unknownLabel"

    // MARK: claimSignature.*
    public static let claimSignatureInsideValidity = "claimSignature.insideValidity"
    public static let claimSignatureMismatch = "claimSignature.mismatch"
    public static let claimSignatureMissing = "claimSignature.missing"
    public static let claimSignatureValidated = "claimSignature.validated"

    // MARK: commit.*
    public static let commitCommittedAndDeclared = "commit.committed-and-declared"
    public static let commitDuplicateClaim = "commit.duplicate-claim"
    public static let commitInvalidSeed = "commit.invalid-seed"
    public static let commitKdf = "commit.kdf"
    public static let commitNotCommitted = "commit.not-committed"
    public static let commitRungMismatch = "commit.rung-mismatch"
    public static let commitUndeclaredClaim = "commit.undeclared-claim"
    public static let commitUnknownClaim = "commit.unknown-claim"

    // MARK: container.*
    public static let containerBadBase64 = "container.badBase64"
    public static let containerBadBlock = "container.badBlock"
    public static let containerBadBoxSize = "container.badBoxSize"
    public static let containerBadChunk = "container.badChunk"
    public static let containerBadIFD = "container.badIFD"
    public static let containerBadMerkleBox = "container.badMerkleBox"
    public static let containerBadPDF = "container.badPDF"
    public static let containerBadSegmentLength = "container.badSegmentLength"
    public static let containerBadTag = "container.badTag"
    public static let containerBadXML = "container.badXML"
    public static let containerCrcMismatch = "container.crcMismatch"
    public static let containerCycle = "container.cycle"
    public static let containerDepthExceeded = "container.depthExceeded"
    public static let containerEncrypted = "container.encrypted"
    public static let containerManifestTooLarge = "container.manifestTooLarge"
    public static let containerMerkleOffsetUnexpected = "container.merkleOffsetUnexpected"
    public static let containerNoInsertionPoint = "container.noInsertionPoint"
    public static let containerNotBMFF = "container.notBMFF"
    public static let containerNotFLAC = "container.notFLAC"
    public static let containerNotJPEG = "container.notJPEG"
    public static let containerOffsetOverflow = "container.offsetOverflow"
    public static let containerSizeChanged = "container.sizeChanged"
    public static let containerTooManyManifestStores = "container.tooManyManifestStores"
    public static let containerTooManyParts = "container.tooManyParts"
    public static let containerTruncated = "container.truncated"
    public static let containerUnsupported = "container.unsupported"

    // MARK: cose.*
    public static let coseBadProtectedHeader = "cose.badProtectedHeader"
    public static let coseBadSignature = "cose.badSignature"
    public static let coseBadUnprotectedHeader = "cose.badUnprotectedHeader"
    public static let coseEmbeddedPayload = "cose.embeddedPayload"
    public static let coseNotSign1 = "cose.notSign1"
    public static let cosePadNotZero = "cose.padNotZero"
    public static let cosePadTooSmall = "cose.padTooSmall"
    public static let coseSignerFailed = "cose.signerFailed"
    public static let coseWrongTag = "cose.wrongTag"
    public static let coseX5chainInBothHeaders = "cose.x5chainInBothHeaders"
    public static let coseX5chainMissing = "cose.x5chainMissing"

    // MARK: custody.*
    public static let custodyBagMismatch = "custody.bagMismatch"
    public static let custodyChainBroken = "custody.chainBroken"
    public static let custodyEmpty = "custody.empty"
    public static let custodyEventInvalid = "custody.event.invalid"
    public static let custodyEventRedacted = "custody.eventRedacted"
    public static let custodyEventTampered = "custody.eventTampered"
    public static let custodyFileMismatch = "custody.fileMismatch"
    public static let custodyHeadMoved = "custody.head.moved"
    public static let custodyHeadMismatch = "custody.headMismatch"
    public static let custodyMalformed = "custody.malformed"
    public static let custodyMalformedEvent = "custody.malformedEvent"
    public static let custodyNotInitialised = "custody.notInitialised"
    public static let custodySequenceGap = "custody.sequenceGap"
    public static let custodyUnknownFormat = "custody.unknownFormat"

    // MARK: der.*
    public static let derEmpty = "der.empty"
    public static let derMalformed = "der.malformed"
    public static let derTrailingBytes = "der.trailingBytes"

    // MARK: discover.*
    public static let discoverNotFound = "discover.notFound"
    public static let discoverUnreadableFolder = "discover.unreadableFolder"

    // MARK: ecdsa.*
    public static let ecdsaAlloc = "ecdsa.alloc"
    public static let ecdsaEncode = "ecdsa.encode"
    public static let ecdsaRawLength = "ecdsa.rawLength"
    public static let ecdsaValueTooWide = "ecdsa.valueTooWide"

    // MARK: evidence.*
    public static let evidenceAbsent = "evidence.absent"
    public static let evidenceNotRegularFile = "evidence.notRegularFile"
    public static let evidenceSymlink = "evidence.symlink"
    public static let evidenceUnreadable = "evidence.unreadable"

    // MARK: export.*
    public static let exportArchiveKey = "export.archiveKey"
    public static let exportBlobRefused = "export.blobRefused"
    public static let exportCustody = "export.custody"
    public static let exportDigestUnsupported = "export.digestUnsupported"
    public static let exportIo = "export.io"
    public static let exportNoRecords = "export.noRecords"
    public static let exportNotPlaced = "export.notPlaced"
    public static let exportOutputExists = "export.outputExists"
    public static let exportPathCollision = "export.pathCollision"
    public static let exportPdfEngineMissing = "export.pdfEngineMissing"
    public static let exportPdfFailed = "export.pdfFailed"
    public static let exportUnknownRecord = "export.unknownRecord"
    public static let exportUnsafePath = "export.unsafePath"

    // MARK: extendedKeyUsage.*
    public static let extendedKeyUsageAnyNotAllowed = "extendedKeyUsage.anyNotAllowed"
    public static let extendedKeyUsageInvalidCombination = "extendedKeyUsage.invalidCombination"
    public static let extendedKeyUsageMissing = "extendedKeyUsage.missing"
    public static let extendedKeyUsageNoAllowedPurpose = "extendedKeyUsage.noAllowedPurpose"

    // MARK: extensions.*
    public static let extensionsUnhandledCritical = "extensions.unhandledCritical"

    // MARK: general.*
    public static let generalError = "general.error"

    // MARK: hash.*
    public static let hashBadField = "hash.badField"
    public static let hashExclusionOutOfRange = "hash.exclusionOutOfRange"
    public static let hashMerkleNotSupported = "hash.merkleNotSupported"
    public static let hashMissingField = "hash.missingField"
    public static let hashNotAMap = "hash.notAMap"
    public static let hashUnsupportedAlgorithm = "hash.unsupportedAlgorithm"

    // MARK: http.*
    public static let httpBodyShort = "http.body.short"
    public static let httpConnect = "http.connect"
    public static let httpRequest = "http.request"
    public static let httpReset = "http.reset"
    public static let httpResponseMalformed = "http.response.malformed"
    public static let httpTimeout = "http.timeout"
    public static let httpTls = "http.tls"
    public static let httpTransport = "http.transport"

    // MARK: identity.*
    public static let identityBadField = "identity.badField"
    public static let identityBadHashedURI = "identity.badHashedURI"
    public static let identityCborBreakOutsideIndefinite = "identity.cbor.breakOutsideIndefinite"
    public static let identityCborDepthExceeded = "identity.cbor.depthExceeded"
    public static let identityCborInvalidIndefinite = "identity.cbor.invalidIndefinite"
    public static let identityCborInvalidSimple = "identity.cbor.invalidSimple"
    public static let identityCborInvalidUTF8 = "identity.cbor.invalidUTF8"
    public static let identityCborLengthTooLarge = "identity.cbor.lengthTooLarge"
    public static let identityCborReservedAdditionalInfo = "identity.cbor.reservedAdditionalInfo"
    public static let identityCborTrailingBytes = "identity.cbor.trailingBytes"
    public static let identityCborTruncated = "identity.cbor.truncated"
    public static let identityMissingField = "identity.missingField"
    public static let identityNotAMap = "identity.notAMap"

    // MARK: index.*
    public static let indexFieldInvalid = "index.field.invalid"
    public static let indexPrefixAmbiguous = "index.prefix.ambiguous"
    public static let indexRecordDamaged = "index.record.damaged"
    public static let indexRecordNotFound = "index.record.notFound"
    public static let indexRecordIdInvalid = "index.recordId.invalid"
    public static let indexStorage = "index.storage"
    public static let indexStorageDiskFull = "index.storage.diskFull"
    public static let indexUnsupportedFormat = "index.unsupportedFormat"

    // MARK: inflate.*
    public static let inflateCorrupt = "inflate.corrupt"
    public static let inflateTooLarge = "inflate.tooLarge"

    // MARK: ingest.*
    public static let ingestFileChanged = "ingest.fileChanged"

    // MARK: ingredient.*
    public static let ingredientBadField = "ingredient.badField"
    public static let ingredientManifestMismatch = "ingredient.manifest.mismatch"
    public static let ingredientManifestMissing = "ingredient.manifest.missing"
    public static let ingredientManifestValidated = "ingredient.manifest.validated"
    public static let ingredientMissingField = "ingredient.missingField"
    public static let ingredientNotAMap = "ingredient.notAMap"
    public static let ingredientNotAnIngredient = "ingredient.notAnIngredient"
    public static let ingredientUnknownProvenance = "ingredient.unknownProvenance"
    public static let ingredientUnsupportedVersion = "ingredient.unsupportedVersion"

    // MARK: io.*
    public static let ioCannotOpen = "io.cannotOpen"
    public static let ioNotRegularFile = "io.notRegularFile"
    public static let ioOutOfRange = "io.outOfRange"
    public static let ioReadFailed = "io.readFailed"
    public static let ioSourceChanged = "io.sourceChanged"
    public static let ioSymlink = "io.symlink"
    public static let ioTooLarge = "io.tooLarge"

    // MARK: jpegHeader.*
    public static let jpegHeaderBadMarker = "jpegHeader.badMarker"
    public static let jpegHeaderBadSegmentLength = "jpegHeader.badSegmentLength"
    public static let jpegHeaderNoFrameHeader = "jpegHeader.noFrameHeader"
    public static let jpegHeaderNotJPEG = "jpegHeader.notJPEG"
    public static let jpegHeaderSizeNotInFrameHeader = "jpegHeader.sizeNotInFrameHeader"
    public static let jpegHeaderTooManySegments = "jpegHeader.tooManySegments"
    public static let jpegHeaderTruncated = "jpegHeader.truncated"

    // MARK: jumbf.*
    public static let jumbfBadBoxLength = "jumbf.badBoxLength"
    public static let jumbfBadDescription = "jumbf.badDescription"
    public static let jumbfDepthExceeded = "jumbf.depthExceeded"
    public static let jumbfMissingDescription = "jumbf.missingDescription"
    public static let jumbfNotAManifestStore = "jumbf.notAManifestStore"
    public static let jumbfNotASuperbox = "jumbf.notASuperbox"
    public static let jumbfTrailingBytes = "jumbf.trailingBytes"
    public static let jumbfTruncated = "jumbf.truncated"

    // MARK: key.*
    public static let keyAlgorithmMismatch = "key.algorithmMismatch"
    public static let keyBadSize = "key.badSize"
    public static let keyGenerate = "key.generate"

    // MARK: keyUsage.*
    public static let keyUsageKeyCertSignOnEndEntity = "keyUsage.keyCertSignOnEndEntity"
    public static let keyUsageMissing = "keyUsage.missing"
    public static let keyUsageNoSigningBit = "keyUsage.noSigningBit"

    // MARK: manifest.*
    public static let manifestInaccessible = "manifest.inaccessible"
    public static let manifestMultipleParents = "manifest.multipleParents"
    public static let manifestPrerelease = "manifest.prerelease"
    public static let manifestUpdateInvalid = "manifest.update.invalid"
    public static let manifestUpdateWrongParents = "manifest.update.wrongParents"

    // MARK: media.*
    public static let mediaCannotOpen = "media.cannotOpen"
    public static let mediaCodecUnavailable = "media.codecUnavailable"
    public static let mediaCorrupt = "media.corrupt"
    public static let mediaDecodeFailed = "media.decodeFailed"
    public static let mediaDimensionsTooLarge = "media.dimensionsTooLarge"
    public static let mediaEncodeFailed = "media.encodeFailed"
    public static let mediaLibavUnavailable = "media.libavUnavailable"
    public static let mediaNoSuchStream = "media.noSuchStream"
    public static let mediaNoTimestamp = "media.noTimestamp"
    public static let mediaPacketTooLarge = "media.packetTooLarge"
    public static let mediaSampleCountMismatch = "media.sampleCountMismatch"
    public static let mediaScaleFailed = "media.scaleFailed"
    public static let mediaTooManyStreams = "media.tooManyStreams"
    public static let mediaTruncated = "media.truncated"
    public static let mediaUnrecognizedContainer = "media.unrecognizedContainer"

    // MARK: mp4.*
    public static let mp4BadBoxSize = "mp4.badBoxSize"
    public static let mp4InvalidTable = "mp4.invalidTable"
    public static let mp4MissingBox = "mp4.missingBox"
    public static let mp4SampleOutOfFile = "mp4.sampleOutOfFile"
    public static let mp4TooManyEntries = "mp4.tooManyEntries"
    public static let mp4Truncated = "mp4.truncated"

    // MARK: pem.*
    public static let pemMalformed = "pem.malformed"
    public static let pemNoCertificate = "pem.noCertificate"
    public static let pemNoPrivateKey = "pem.noPrivateKey"

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

    // MARK: publicKey.*
    public static let publicKeyRsaTooShort = "publicKey.rsaTooShort"
    public static let publicKeyUnsupported = "publicKey.unsupported"

    // MARK: queue.* (the PostgreSQL work queue, docs/postgres.md)
    public static let queueLeaseLost = "queue.lease.lost"

    // MARK: record.*
    public static let recordBadChunkSize = "record.badChunkSize"
    public static let recordCborBreakOutsideIndefinite = "record.cbor.breakOutsideIndefinite"
    public static let recordCborDepthExceeded = "record.cbor.depthExceeded"
    public static let recordCborInvalidIndefinite = "record.cbor.invalidIndefinite"
    public static let recordCborInvalidSimple = "record.cbor.invalidSimple"
    public static let recordCborInvalidUTF8 = "record.cbor.invalidUTF8"
    public static let recordCborLengthTooLarge = "record.cbor.lengthTooLarge"
    public static let recordCborReservedAdditionalInfo = "record.cbor.reservedAdditionalInfo"
    public static let recordCborTrailingBytes = "record.cbor.trailingBytes"
    public static let recordCborTruncated = "record.cbor.truncated"
    public static let recordCountMismatch = "record.countMismatch"
    public static let recordDuplicateKey = "record.duplicateKey"
    public static let recordInvalidValue = "record.invalidValue"
    public static let recordLengthMismatch = "record.lengthMismatch"
    public static let recordMissingKey = "record.missingKey"
    public static let recordTruncated = "record.truncated"
    public static let recordUnknownVersion = "record.unknownVersion"
    public static let recordUnsupportedVersion = "record.unsupportedVersion"
    public static let recordWrongType = "record.wrongType"

    // MARK: ring.*
    public static let ringDuplicateName = "ring.duplicateName"
    public static let ringInvalidName = "ring.invalidName"

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
    public static let s3Rejected = "s3.rejected"
    public static let s3ResponseMalformed = "s3.response.malformed"
    public static let s3Unavailable = "s3.unavailable"

    // MARK: selfSigned.*
    public static let selfSignedCa = "selfSigned.ca"

    // MARK: sign.*
    public static let signAlloc = "sign.alloc"
    public static let signFailed = "sign.failed"
    public static let signInit = "sign.init"

    // MARK: signature.*
    public static let signatureAlgorithm = "signature.algorithm"
    public static let signatureCertificateMismatch = "signature.certificateMismatch"
    public static let signatureInvalid = "signature.invalid"
    public static let signatureMalformed = "signature.malformed"
    public static let signatureNoCertificate = "signature.noCertificate"

    // MARK: signatureAlgorithm.*
    public static let signatureAlgorithmUnsupported = "signatureAlgorithm.unsupported"

    // MARK: signingCredential.*
    public static let signingCredentialExpired = "signingCredential.expired"
    public static let signingCredentialInvalid = "signingCredential.invalid"
    public static let signingCredentialTrusted = "signingCredential.trusted"
    public static let signingCredentialUntrusted = "signingCredential.untrusted"

    // MARK: streamed.*
    public static let streamedChunkSizeUnsupported = "streamed.chunkSizeUnsupported"
    public static let streamedCountMismatch = "streamed.countMismatch"
    public static let streamedOrderChunksLeftOver = "streamed.order.chunksLeftOver"
    public static let streamedOrderTooManyChunks = "streamed.order.tooManyChunks"

    // MARK: subjectKeyIdentifier.*
    public static let subjectKeyIdentifierMissing = "subjectKeyIdentifier.missing"

    // MARK: synth.*
    public static let synthCrypto = "synth.crypto"
    public static let synthFfmpeg = "synth.ffmpeg"
    public static let synthInternal = "synth.internal"
    public static let synthIo = "synth.io"
    public static let synthJpeg = "synth.jpeg"
    public static let synthSign = "synth.sign"
    public static let synthUsage = "synth.usage"

    // MARK: timeStamp.*
    public static let timeStampMalformed = "timeStamp.malformed"
    public static let timeStampMismatch = "timeStamp.mismatch"
    public static let timeStampTrusted = "timeStamp.trusted"
    public static let timeStampUntrusted = "timeStamp.untrusted"
    public static let timeStampValidated = "timeStamp.validated"

    // MARK: tsa.*
    public static let tsaAlloc = "tsa.alloc"
    public static let tsaConfig = "tsa.config"
    public static let tsaEncode = "tsa.encode"
    public static let tsaPolicy = "tsa.policy"
    public static let tsaRejected = "tsa.rejected"
    public static let tsaRequest = "tsa.request"
    public static let tsaRespond = "tsa.respond"

    // MARK: tst.*
    public static let tstBadGenTime = "tst.badGenTime"
    public static let tstBadImprint = "tst.badImprint"
    public static let tstNoToken = "tst.noToken"
    public static let tstNotGranted = "tst.notGranted"
    public static let tstNotTimeStampToken = "tst.notTimeStampToken"

    // MARK: uniqueIdentifiers.*
    public static let uniqueIdentifiersPresent = "uniqueIdentifiers.present"

    // MARK: validity.*
    public static let validityNotValidAtSigningTime = "validity.notValidAtSigningTime"

    // MARK: verify.*
    public static let verifyNotRegularFile = "verify.notRegularFile"
    public static let verifySymlink = "verify.symlink"

    // MARK: version.*
    public static let versionNotV3 = "version.notV3"
}

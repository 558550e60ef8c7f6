/// Every status code the archive emits, one named constant each, in this one table (as
/// c2pa-rs's `validation_status.rs`): the C2PA and CAWG codes the validator reports (the
/// specification's own strings, `claimSignature.validated`, `assertion.dataHash.mismatch`, …)
/// and every project code of a typed error (`io.*`, `verify.*`, `cas.*`, `index.*`,
/// `ingest.*`, `export.*`, `media.*`, `bag.*`, `custody.*`, `record.*`, …). Codes are stable:
/// tests, scripts and the documentation compare against these strings, so a code is added
/// here, never spelled anywhere else, and never built by string interpolation. The validator's
/// codes (C2PA, CAWG, and the container/JUMBF/CBOR/COSE readers) are in
/// StatusCode+Validation.swift, the storage layer's (`archive.*`, `cas.*`, `http.*`, `index.*`,
/// `pg.*`, `queue.*`, `s3.*`) in StatusCode+Storage.swift; the project's others are below.
///
/// Naming: the code's dot-, dash- and underscore-separated words in camel case
/// (`cas.chunk.missing` → `casChunkMissing`, `cawg.ica.valid_from.invalid` →
/// `cawgIcaValidFromInvalid`).
public enum StatusCode {
    // MARK: analysis.* (the media analyses stage, `analyze`, docs/ingest.md)
    public static let analysisBlobMissing = "analysis.blobMissing"
    public static let analysisRecordChanged = "analysis.recordChanged"
    public static let analysisReportUnreadable = "analysis.reportUnreadable"

    // MARK: anchors.*
    public static let anchorsAdd = "anchors.add"
    public static let anchorsAlloc = "anchors.alloc"
    public static let anchorsUnreadable = "anchors.unreadable"

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

    // MARK: cafHeader.* (CAF facts without libavformat; MediaFacts falls back to it)
    public static let cafHeaderBadChunkSize = "cafHeader.badChunkSize"
    public static let cafHeaderNoData = "cafHeader.noData"
    public static let cafHeaderNoDescription = "cafHeader.noDescription"
    public static let cafHeaderNotCAF = "cafHeader.notCAF"
    public static let cafHeaderTooManyChunks = "cafHeader.tooManyChunks"
    public static let cafHeaderTruncated = "cafHeader.truncated"
    public static let cafHeaderUnsupportedFormat = "cafHeader.unsupportedFormat"

    // MARK: commit.*
    public static let commitCommittedAndDeclared = "commit.committed-and-declared"
    public static let commitDuplicateClaim = "commit.duplicate-claim"
    public static let commitInvalidSeed = "commit.invalid-seed"
    public static let commitKdf = "commit.kdf"
    public static let commitNotCommitted = "commit.not-committed"
    public static let commitRungMismatch = "commit.rung-mismatch"
    public static let commitUndeclaredClaim = "commit.undeclared-claim"
    public static let commitUnknownClaim = "commit.unknown-claim"

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
    public static let exportBlobStoreUnavailable = "export.blobStore.unavailable"
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

    // MARK: inflate.*
    public static let inflateCorrupt = "inflate.corrupt"
    public static let inflateTooLarge = "inflate.tooLarge"

    // MARK: ingest.*
    public static let ingestSourceChanged = "ingest.sourceChanged"

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

    // MARK: key.*
    public static let keyAlgorithmMismatch = "key.algorithmMismatch"
    public static let keyBadSize = "key.badSize"
    public static let keyGenerate = "key.generate"

    // MARK: keyUsage.*
    public static let keyUsageKeyCertSignOnEndEntity = "keyUsage.keyCertSignOnEndEntity"
    public static let keyUsageMissing = "keyUsage.missing"
    public static let keyUsageNoSigningBit = "keyUsage.noSigningBit"

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

    // MARK: movieHeader.* (MP4/MOV facts from the `moov` box without libavformat; MediaFacts falls back to it)
    public static let movieHeaderBadBox = "movieHeader.badBox"
    public static let movieHeaderBadBoxSize = "movieHeader.badBoxSize"
    public static let movieHeaderDuplicateBox = "movieHeader.duplicateBox"
    public static let movieHeaderFragmented = "movieHeader.fragmented"
    public static let movieHeaderInconsistentTables = "movieHeader.inconsistentTables"
    public static let movieHeaderMissingBox = "movieHeader.missingBox"
    public static let movieHeaderNoMovie = "movieHeader.noMovie"
    public static let movieHeaderNotMovie = "movieHeader.notMovie"
    public static let movieHeaderTooDeep = "movieHeader.tooDeep"
    public static let movieHeaderTooManyBoxes = "movieHeader.tooManyBoxes"
    public static let movieHeaderTrailingData = "movieHeader.trailingData"
    public static let movieHeaderTruncated = "movieHeader.truncated"
    public static let movieHeaderUnsupportedCodec = "movieHeader.unsupportedCodec"
    public static let movieHeaderUnsupportedTrack = "movieHeader.unsupportedTrack"

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

    // MARK: publicKey.*
    public static let publicKeyRsaTooShort = "publicKey.rsaTooShort"
    public static let publicKeyUnsupported = "publicKey.unsupported"

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

    // MARK: turboJPEG.*
    public static let turboJPEGColorSpaceUnsupported = "turboJPEG.colorSpaceUnsupported"
    public static let turboJPEGDamaged = "turboJPEG.damaged"
    public static let turboJPEGDecodeFailed = "turboJPEG.decodeFailed"
    public static let turboJPEGDimensionsTooLarge = "turboJPEG.dimensionsTooLarge"
    public static let turboJPEGEncodeFailed = "turboJPEG.encodeFailed"
    public static let turboJPEGHandleUnavailable = "turboJPEG.handleUnavailable"
    public static let turboJPEGHeaderUnreadable = "turboJPEG.headerUnreadable"

    // MARK: uniqueIdentifiers.*
    public static let uniqueIdentifiersPresent = "uniqueIdentifiers.present"

    // MARK: validity.*
    public static let validityNotValidAtSigningTime = "validity.notValidAtSigningTime"

    // MARK: verify.*
    public static let verifyNotRegularFile = "verify.notRegularFile"
    public static let verifySymlink = "verify.symlink"

    // MARK: version.*
    public static let versionNotV3 = "version.notV3"

    // MARK: walk.* (the descriptor walk of a dump, docs/design.md "The dump walk")
    public static let walkSymlink = "walk.symlink"
    public static let walkTooDeep = "walk.tooDeep"
    public static let walkTooMany = "walk.tooMany"
    public static let walkUnreadable = "walk.unreadable"
}

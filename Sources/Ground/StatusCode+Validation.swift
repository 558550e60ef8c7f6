/// The validator's codes in the one table (`StatusCode`, StatusCode.swift): the C2PA and CAWG
/// specifications' own strings and the codes of the container, JUMBF, CBOR and COSE readers
/// that feed them. Same rules as the rest of the table: named after the code, never spelled
/// anywhere else, never interpolated.
extension StatusCode {
    // MARK: algorithm.*
    public static let algorithmUnsupported = "algorithm.unsupported"

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

    // MARK: general.*
    public static let generalError = "general.error"

    // MARK: hash.*
    public static let hashBadField = "hash.badField"
    public static let hashExclusionOutOfRange = "hash.exclusionOutOfRange"
    public static let hashMerkleNotSupported = "hash.merkleNotSupported"
    public static let hashMissingField = "hash.missingField"
    public static let hashNotAMap = "hash.notAMap"
    public static let hashUnsupportedAlgorithm = "hash.unsupportedAlgorithm"

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

    // MARK: jumbf.*
    public static let jumbfBadBoxLength = "jumbf.badBoxLength"
    public static let jumbfBadDescription = "jumbf.badDescription"
    public static let jumbfDepthExceeded = "jumbf.depthExceeded"
    public static let jumbfMissingDescription = "jumbf.missingDescription"
    public static let jumbfNotAManifestStore = "jumbf.notAManifestStore"
    public static let jumbfNotASuperbox = "jumbf.notASuperbox"
    public static let jumbfTrailingBytes = "jumbf.trailingBytes"
    public static let jumbfTruncated = "jumbf.truncated"

    // MARK: manifest.*
    public static let manifestInaccessible = "manifest.inaccessible"
    public static let manifestMultipleParents = "manifest.multipleParents"
    public static let manifestPrerelease = "manifest.prerelease"
    public static let manifestUpdateInvalid = "manifest.update.invalid"
    public static let manifestUpdateWrongParents = "manifest.update.wrongParents"

    // MARK: signingCredential.*
    public static let signingCredentialExpired = "signingCredential.expired"
    public static let signingCredentialInvalid = "signingCredential.invalid"
    public static let signingCredentialTrusted = "signingCredential.trusted"
    public static let signingCredentialUntrusted = "signingCredential.untrusted"

    // MARK: timeStamp.*
    public static let timeStampMalformed = "timeStamp.malformed"
    public static let timeStampMismatch = "timeStamp.mismatch"
    public static let timeStampTrusted = "timeStamp.trusted"
    public static let timeStampUntrusted = "timeStamp.untrusted"
    public static let timeStampValidated = "timeStamp.validated"
}

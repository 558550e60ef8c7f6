import Crypto
import FuzzSupport

// RFC 3161 time-stamp tokens and responses (`sigTst` carries a TimeStampResp, `sigTst2` a token).
fuzzMain { bytes in
    guard let token = try? TimeStampToken(der: bytes) else { return }
    _ = (token.genTime, token.serialNumberHex, token.tsaCertificates.count, token.validationTime)
}

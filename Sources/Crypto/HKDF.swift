import COpenSSL

/// HKDF (RFC 5869) through OpenSSL's EVP_KDF.
public enum HKDF {
    /// HKDF-Extract-and-Expand with SHA-256. An empty salt means the RFC's zero-filled salt.
    public static func sha256(key: [UInt8], salt: [UInt8] = [], info: [UInt8], length: Int) throws(OpenSSLError) -> [UInt8] {
        guard let kdf = EVP_KDF_fetch(nil, "HKDF", nil) else { throw OpenSSLError("EVP_KDF_fetch(HKDF)") }
        defer { EVP_KDF_free(kdf) }
        guard let kctx = EVP_KDF_CTX_new(kdf) else { throw OpenSSLError("EVP_KDF_CTX_new") }
        defer { EVP_KDF_CTX_free(kctx) }
        var out = [UInt8](repeating: 0, count: length)
        var key = key, salt = salt, info = info
        var digestName = Array("SHA256".utf8CString)
        // OSSL_PARAM keeps the key-name pointers: they must outlive EVP_KDF_derive, so they are
        // owned arrays here rather than Swift String temporaries (which dangle after the call).
        var nDigest = Array("digest".utf8CString), nKey = Array("key".utf8CString)
        var nInfo = Array("info".utf8CString), nSalt = Array("salt".utf8CString)
        let rc: Int32 = digestName.withUnsafeMutableBufferPointer { dn in
            nDigest.withUnsafeMutableBufferPointer { pd in
            nKey.withUnsafeMutableBufferPointer { pk in
            nInfo.withUnsafeMutableBufferPointer { pi in
            nSalt.withUnsafeMutableBufferPointer { ps in
            key.withUnsafeMutableBytes { k in
                salt.withUnsafeMutableBytes { s in
                    info.withUnsafeMutableBytes { i in
                        var params: [OSSL_PARAM] = [
                            OSSL_PARAM_construct_utf8_string(pd.baseAddress, dn.baseAddress, 0),
                            OSSL_PARAM_construct_octet_string(pk.baseAddress, k.baseAddress, k.count),
                            OSSL_PARAM_construct_octet_string(pi.baseAddress, i.baseAddress, i.count),
                        ]
                        if s.count > 0 {
                            params.append(OSSL_PARAM_construct_octet_string(ps.baseAddress, s.baseAddress, s.count))
                        }
                        params.append(OSSL_PARAM_construct_end())
                        return EVP_KDF_derive(kctx, &out, length, &params)
                    }
                }
            }
            }
            }
            }
            }
        }
        guard rc == 1 else { throw OpenSSLError("EVP_KDF_derive(HKDF)") }
        return out
    }
}

import Crypto
import Foundation
import Ground
import TestLiterals
import Testing
@testable import Verify

/// The chain-verdict cache shares one verdict across times inside every certificate's validity,
/// and never serves it for a time outside.
@Suite struct ChainCacheTests {
    @Test func verdictsAreSharedOnlyInsideTheValidityWindow() throws {
        let pki = try C2PAValidatorTests.pki.get()
        let v = try C2PAValidatorTests().validator()
        let chain = try [pki.leaf.der, pki.root.der].map { try #require(v.parsedCertificate($0)) }
        #expect(v.parsedCertificate(pki.leaf.der) === chain[0]) // parsed once
        let now = Date()
        let later = now.addingTimeInterval(3600)
        let afterExpiry = try #require(pki.leaf.notAfter).addingTimeInterval(86_400)
        let windows = chain.map(\.window), prints = chain.map(\.sha256Fingerprint)
        let anchors = [ValidityWindow(pki.root)]
        #expect(C2PAValidator.cacheKey(windows, fingerprints: prints, at: now, anchors: anchors)
                == C2PAValidator.cacheKey(windows, fingerprints: prints, at: later, anchors: anchors))
        #expect(C2PAValidator.cacheKey(windows, fingerprints: prints, at: afterExpiry, anchors: anchors)
                != C2PAValidator.cacheKey(windows, fingerprints: prints, at: now, anchors: anchors))
        // With several anchors, times with the same validity pattern share a verdict.
        let several = [ValidityWindow(pki.root), ValidityWindow(pki.tsaRoot)]
        #expect(C2PAValidator.cacheKey(windows, fingerprints: prints, at: now, anchors: several)
                == C2PAValidator.cacheKey(windows, fingerprints: prints, at: later, anchors: several))
        #expect(v.chainValidation(chain, at: now).isTrusted)
        #expect(v.chainValidation(chain, at: later).isTrusted)
        #expect(!v.chainValidation(chain, at: afterExpiry).isTrusted) // not the cached in-window verdict
        #expect(v.chainValidation(chain, at: now).isTrusted)
    }
}

import Testing
@testable import S3

/// The strict XML reader of S3 answers: what S3 sends parses; anything else is refused with
/// `s3.response.malformed`.
@Suite struct XMLParserTests {
    func parse(_ text: String) throws -> XMLElement { try XMLDocumentParser.parse(Array(text.utf8)) }

    @Test func listingParses() throws {
        let root = try parse("""
            <?xml version="1.0" encoding="UTF-8"?>
            <ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>b</Name><IsTruncated>true</IsTruncated>\
            <NextContinuationToken>t&amp;1</NextContinuationToken><Contents><Key>a&lt;b&#x41;&#66;</Key><Size>12</Size>\
            <ETag>&quot;abc&quot;</ETag></Contents><!-- c --><Contents><Key>k2</Key><Size>0</Size></Contents><Empty/></ListBucketResult>
            """)
        #expect(root.name == "ListBucketResult")
        #expect(try root.required("NextContinuationToken") == "t&1")
        #expect(root.children("Contents").count == 2)
        #expect(try root.children("Contents")[0].required("Key") == "a<bAB")
        #expect(try root.children("Contents")[0].required("ETag") == "\"abc\"")
        #expect(try root.children("Contents")[1].requiredInteger("Size") == 0)
        #expect(root.child("Empty")?.text == "")
    }

    @Test(arguments: [
        "", "<a>", "<a></b>", "<a>x</a><b/>", "<a>x</a>junk", "<!DOCTYPE a [<!ENTITY x \"y\">]><a>&x;</a>",
        "<a><![CDATA[x]]></a>", "<a>&unknown;</a>", "<a>&#0;</a>", "<a b=c/>", "<a><?pi?></a>", "text",
        "<a>\u{FFFD}</a>".replacingOccurrences(of: "\u{FFFD}", with: "&#xD800;"),
    ])
    func malformedIsRefused(_ text: String) {
        #expect(throws: S3Error.self) { try parse(text) }
        do { _ = try parse(text) } catch { #expect((error as? S3Error)?.code == .malformedResponse) }
    }

    @Test func depthIsCapped() throws {
        let ok = String(repeating: "<a>", count: XMLDocumentParser.maxDepth) + String(repeating: "</a>", count: XMLDocumentParser.maxDepth)
        _ = try parse(ok)
        let deep = "<a>" + ok + "</a>"
        #expect(throws: S3Error.self) { try parse(deep) }
    }

    @Test func invalidUTF8IsRefused() {
        #expect(throws: S3Error.self) { try XMLDocumentParser.parse(Array("<a>".utf8) + [0xFF, 0xFE] + Array("</a>".utf8)) }
    }

    @Test func errorDocumentsAreClassified() {
        let body = Array("<Error><Code>SignatureDoesNotMatch</Code><Message>m</Message></Error>".utf8)
        #expect(S3Error.serverCode(in: body) == "SignatureDoesNotMatch")
        #expect(S3Error.classify(status: 403, serverCode: "SignatureDoesNotMatch", message: "").code == .credentialsRejected)
        #expect(S3Error.classify(status: 400, serverCode: "XAmzContentSHA256Mismatch", message: "").code == .integrityRejected)
        #expect(S3Error.classify(status: 503, serverCode: "", message: "").code == .unavailable)
        #expect(S3Error.classify(status: 404, serverCode: "", message: "").code == .notFound)
        #expect(S3RetryPolicy.isRetryable(status: 400, serverCode: "RequestTimeout"))
        #expect(!S3RetryPolicy.isRetryable(status: 403, serverCode: "AccessDenied"))
        #expect(!S3RetryPolicy.isRetryable(status: 412, serverCode: "PreconditionFailed"))
    }
}

import C2PA
import Ground
import TestLiterals
import Testing

/// The XMP `dcterms:provenance` reader: both forms c2pa-rs reads, entities, and markup it must
/// refuse rather than guess at.
@Suite struct XMPProvenanceTests {
    func value(_ xml: String) -> String? { XMPProvenance.provenance(in: Array(xml.utf8)) }

    let url = "https://manifests.example.invalid/m/1.c2pa"

    @Test func attributeAndElementForms() {
        #expect(value(#"<x:xmpmeta><rdf:RDF><rdf:Description rdf:about="" dcterms:provenance="\#(url)"/></rdf:RDF></x:xmpmeta>"#) == url)
        #expect(value("<rdf:Description rdf:about='' dcterms:provenance='\(url)'></rdf:Description>") == url)
        #expect(value("<rdf:Description rdf:about=\"\">\n <dcterms:provenance> \(url)\n</dcterms:provenance></rdf:Description>") == url)
        // Attribute spacing around '=' and an XML declaration, comment and CDATA before it.
        #expect(value("<?xpacket begin=\"\"?><!-- a > b --><![CDATA[<rdf:Description dcterms:provenance=\"x\">]]>"
            + "<rdf:Description\n  dcterms:provenance = \"\(url)\" />") == url)
        // The first one in document order wins; another element's attribute of that name is not read.
        #expect(value("<rdf:Other dcterms:provenance=\"https://a.invalid/\"/><rdf:Description dcterms:provenance=\"https://b.invalid/\"/>")
            == "https://b.invalid/")
        #expect(value("<rdf:Description rdf:about=\"\"/>") == nil)
        #expect(XMPProvenance.provenance(in: XMPProvenance.minimalPacket(provenance: url + "?a=1&b=\"2\"")) == url + "?a=1&b=\"2\"")
    }

    @Test func entitiesAreDecodedAndUnknownOnesRefused() {
        #expect(value(#"<rdf:Description dcterms:provenance="https://h.invalid/?a=1&amp;b=&#50;&#x33;"/>"#) == "https://h.invalid/?a=1&b=23")
        #expect(value(#"<rdf:Description dcterms:provenance="https://h.invalid/?a=1&nbsp;"/>"#) == nil)
        #expect(value(#"<rdf:Description dcterms:provenance="https://h.invalid/&amp"/>"#) == nil)
    }

    @Test func malformedMarkupIsRefused() {
        for bad in [
            #"<rdf:Description dcterms:provenance="https://h.invalid/"#,           // unterminated value
            #"<rdf:Description dcterms:provenance=https://h.invalid/>"#,           // unquoted
            #"<rdf:Description dcterms:provenance="a<b"/>"#,                       // '<' in a value
            #"<!DOCTYPE x [<!ENTITY e "https://h.invalid/">]><rdf:Description dcterms:provenance="&e;"/>"#,
            #"<!-- never closed <rdf:Description dcterms:provenance="https://h.invalid/"/>"#,
            #"<rdf:Descriptiondcterms:provenance="https://h.invalid/"/>"#,
            "<dcterms:provenance>https://h.invalid/",                              // element never closed
            "<rdf:Description dcterms:provenance=\"https://h.invalid/\u{07}\"/>",  // control character
        ] {
            #expect(value(bad) == nil, "\(bad)")
        }
        let long = "https://h.invalid/" + String(repeating: "a", count: XMPProvenance.maximumValue)
        #expect(value("<rdf:Description dcterms:provenance=\"\(long)\"/>") == nil)
    }

    @Test func onlyHTTPURLsAreRemoteReferences() {
        #expect(XMPProvenance.remoteURL(url) == url)
        #expect(XMPProvenance.remoteURL("HTTP://h.invalid") == "HTTP://h.invalid")
        for v in ["self#jumbf=c2pa/urn:c2pa:1/c2pa.claim", "ftp://h.invalid/x", "https://", "https:///path", "https://h.invalid/a b"] {
            #expect(XMPProvenance.remoteURL(v) == nil, "\(v)")
        }
    }

    @Test func jpegPacketIsFoundAndWritten() throws {
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0x4A, 0x46, 0xFF, 0xDA, 0x00, 0x02, 0x00, 0xFF, 0xD9]
        #expect(try XMPProvenance.packet(inJPEG: MemoryByteSource(jpeg)) == nil)
        let packet = XMPProvenance.minimalPacket(provenance: url)
        let with = try JPEGContainer.insertXMP(packet, into: jpeg)
        #expect(Array(with[6..<8]) == [0x4A, 0x46], "after APP0")
        #expect(Array(with[8..<10]) == [0xFF, 0xE1])
        #expect(try XMPProvenance.packet(inJPEG: MemoryByteSource(with)) == packet)
        // An APP1 with the namespace but invalid UTF-8 is skipped (c2pa-rs reads the next one).
        let broken = try JPEGContainer.insertXMP([0xC3, 0x28], into: jpeg)
        #expect(try XMPProvenance.packet(inJPEG: MemoryByteSource(broken)) == nil)
    }
}

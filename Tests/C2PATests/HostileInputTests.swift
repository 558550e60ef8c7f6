@testable import C2PA
import Crypto
import Foundation
import Ground
import TestLiterals
import Testing

/// Truncated, oversized, deeply nested and out-of-sequence inputs give the named error or absence.
@Suite struct HostileInputTests {
    func sampleStore(_ payload: Int = 100) -> [UInt8] {
        JUMBFNode.superbox(typeUUID: C2PABoxType.store, label: "c2pa", children: [
            .superbox(typeUUID: C2PABoxType.manifest, label: "urn:c2pa:x", children: [
                .superbox(typeUUID: C2PABoxType.claim, label: "c2pa.claim.v2",
                          children: [.content(type: "cbor", payload: [UInt8](repeating: 0xA0, count: 1) + [UInt8](repeating: 0, count: payload))]),
            ]),
        ]).encoded()
    }

    func minimalJPEG() -> [UInt8] {
        [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0x4A, 0x46, 0xFF, 0xDA, 0x00, 0x02, 0x11, 0x22, 0xFF, 0xD9]
    }

    @Test func jumbfTruncationAndLengths() throws {
        let store = sampleStore()
        _ = try ManifestStore(parsing: store)
        #expect(throws: JUMBFError.badBoxLength(offset: 0)) { try JUMBFBox(parsing: Array(store.dropLast())) }
        #expect(throws: JUMBFError.trailingBytes(offset: store.count)) { try JUMBFBox(parsing: store + [0]) }
        var huge = store
        huge[0] = 0x7F
        #expect(throws: JUMBFError.badBoxLength(offset: 0)) { try JUMBFBox(parsing: huge) }
        // Every truncation fails with a jumbf error, never a crash.
        for n in 0..<store.count {
            #expect(throws: JUMBFError.self) { try JUMBFBox(parsing: Array(store.prefix(n))) }
        }
        // Nesting beyond the cap.
        var node = JUMBFNode.content(type: "cbor", payload: [0])
        for _ in 0...(JUMBFBox.maximumDepth + 1) { node = .superbox(typeUUID: C2PABoxType.cbor, label: "x", children: [node]) }
        #expect(throws: JUMBFError.self) { try JUMBFBox(parsing: node.encoded()) }
        do { _ = try JUMBFBox(parsing: node.encoded()) } catch { #expect(error.code == "jumbf.depthExceeded") }
        #expect(throws: JUMBFError.notAManifestStore) {
            try ManifestStore(parsing: JUMBFNode.superbox(typeUUID: C2PABoxType.cbor, label: "c2pa", children: []).encoded())
        }
    }

    @Test func jpegMultiSegmentReassemblyAndSequenceFaults() throws {
        let store = sampleStore(150_000) // three APP11 segments
        let (jpeg, range) = try JPEGContainer.embed(store, into: minimalJPEG())
        #expect(range.count == JPEGContainer.segmentsLength(storeLength: store.count))
        guard case .found(let loc) = try JPEGContainer.manifest(in: MemoryByteSource(jpeg)) else { Issue.record(); return }
        #expect(loc.storeBytes == store)
        #expect(loc.ranges.count == 3)
        #expect(loc.span == Int64(range.lowerBound)..<Int64(range.upperBound))
        let segs = loc.ranges.map { Array(jpeg[Int($0.lowerBound)..<Int($0.upperBound)]) }
        let head = Array(jpeg[..<range.lowerBound]), tail = Array(jpeg[range.upperBound...])
        func lookup(_ order: [Int]) throws -> ManifestLookup {
            try JPEGContainer.manifest(in: MemoryByteSource(head + order.flatMap { segs[$0] } + tail))
        }
        #expect(try lookup([0, 2]) == .absent(reason: "sequenceGap"))
        #expect(try lookup([0, 1, 1, 2]) == .absent(reason: "duplicateSegment"))
        #expect(try lookup([0, 2, 1]) == .absent(reason: "sequenceGap"))
        #expect(try lookup([1, 2]) == .absent(reason: "none"))
        if case .found = try lookup([0, 1, 2]) {} else { Issue.record("reassembly failed") }
        // Missing the last packet: the superbox length no longer matches.
        #expect(try lookup([0, 1]) == .absent(reason: "lengthMismatch"))
        // A segment between packets makes them non-contiguous.
        let com: [UInt8] = [0xFF, 0xFE, 0x00, 0x03, 0x41]
        #expect(try JPEGContainer.manifest(in: MemoryByteSource(head + segs[0] + com + segs[1] + segs[2] + tail))
            == .absent(reason: "nonContiguous"))
        // A second store is an error.
        #expect(throws: ContainerError.tooManyManifestStores) { try JPEGContainer.embed(store, into: jpeg) }
        // Replace keeps the layout; another length is refused.
        var other = store
        other[other.count - 1] = 0x55
        let replaced = try JPEGContainer.replace(other, in: jpeg)
        #expect(replaced.count == jpeg.count)
        #expect(throws: ContainerError.self) { try JPEGContainer.replace(other + [0], in: jpeg) }
    }

    @Test func jpegHostileStructure() throws {
        #expect(throws: ContainerError.notJPEG) { try JPEGContainer.segments(of: MemoryByteSource([0x00, 0x01, 0x02, 0x03])) }
        var j = minimalJPEG()
        j[5] = 0xFF // APP0 length runs past the end
        #expect(throws: ContainerError.badSegmentLength(offset: 2)) { try JPEGContainer.segments(of: MemoryByteSource(j)) }
        #expect(throws: ContainerError.self) { try JPEGContainer.segments(of: MemoryByteSource(Array(minimalJPEG().prefix(7)))) }
        #expect(try JPEGContainer.manifest(in: MemoryByteSource(minimalJPEG())) == .absent(reason: "none"))
    }

    @Test func bmffHostileBoxes() throws {
        let ftyp: [UInt8] = [0, 0, 0, 16] + Array("ftypisom".utf8) + [0, 0, 2, 0]
        let free: [UInt8] = [0, 0, 0, 8] + Array("free".utf8)
        #expect(try BMFFContainer.manifest(in: MemoryByteSource(ftyp + free)) == .absent(reason: "none"))
        #expect(throws: ContainerError.badBoxSize(offset: 16)) {
            try BMFFBox.parse(MemoryByteSource(ftyp + [0, 0, 0, 64] + Array("free".utf8)))
        }
        #expect(throws: ContainerError.truncated(offset: 16)) { try BMFFBox.parse(MemoryByteSource(ftyp + [0, 0, 0])) }
        // largesize smaller than the header.
        #expect(throws: ContainerError.badBoxSize(offset: 16)) {
            try BMFFBox.parse(MemoryByteSource(ftyp + [0, 0, 0, 1] + Array("mdat".utf8) + [0, 0, 0, 0, 0, 0, 0, 4]))
        }
        // size 0 runs to the end.
        let boxes = try BMFFBox.parse(MemoryByteSource(ftyp + [0, 0, 0, 0] + Array("mdat".utf8) + [1, 2, 3]))
        #expect(boxes.last?.range == 16..<27)
        // Deep nesting is capped.
        var nested: [UInt8] = free
        for _ in 0...BMFFBox.maximumDepth + 1 { nested = BigEndian.bytes(UInt32(nested.count + 8)) + Array("moov".utf8) + nested }
        #expect(throws: ContainerError.self) { try BMFFBox.parse(MemoryByteSource(ftyp + nested)) }
        #expect(throws: ContainerError.notBMFF) { try BMFFContainer.manifest(in: MemoryByteSource(free + ftyp)) }
        // A C2PA box round trip with a 32-bit stco shift.
        let stco: [UInt8] = [0, 0, 0, 20] + Array("stco".utf8) + [0, 0, 0, 0, 0, 0, 0, 1] + BigEndian.bytes(UInt32(40))
        var moov = stco
        for t in ["stbl", "minf", "mdia", "trak", "moov"] { moov = BigEndian.bytes(UInt32(moov.count + 8)) + Array(t.utf8) + moov }
        let file = ftyp + moov + [0, 0, 0, 9] + Array("mdat".utf8) + [7]
        let store = sampleStore()
        let (out, range) = try BMFFContainer.embed(store, into: file)
        #expect(range.lowerBound == 16)
        guard case .found(let loc) = try BMFFContainer.manifest(in: MemoryByteSource(out)) else { Issue.record(); return }
        #expect(loc.storeBytes == store)
        let patched = BMFFBox.boxes(at: "/moov/trak/mdia/minf/stbl/stco", in: try BMFFBox.parse(MemoryByteSource(out)))
        #expect(patched.count == 1)
        let entry = Int(patched[0].range.lowerBound) + 16
        #expect(BigEndian.u32(out, entry) == UInt32(40 + range.count))
        // An offset that would pass 2^32 is refused.
        var big = file
        let at = file.count - 9 - 4
        big.replaceSubrange(at..<(at + 4), with: BigEndian.bytes(UInt32.max - 10))
        #expect(throws: ContainerError.self) { try BMFFContainer.embed(store, into: big) }
    }

    @Test func coseHostileAndPad() throws {
        let cose = try COSESign1.sign(payload: [1, 2, 3], algorithm: .es256, certificateChain: [[0x30, 0x00]],
                                      reservedSize: 300, signer: { _ in [UInt8](repeating: 7, count: 64) })
        let bytes = cose.encoded()
        #expect(bytes.count == 300)
        let back = try COSESign1(parsing: bytes)
        #expect(back.algorithm == .es256)
        #expect(back.x5chain == [[0x30, 0x00]])
        #expect(back.signature == [UInt8](repeating: 7, count: 64))
        // Every reserved size from the bare length up to 70 000 bytes is hit exactly.
        for size in [back.encoded().count - 0, 150, 151, 152, 200, 280, 281, 282, 283, 400, 65_600, 70_000] where size >= 120 {
            if let m = try? cose.padded(to: size) { #expect(m.encoded().count == size, "\(size)") }
        }
        #expect(throws: COSEError.self) { try cose.padded(to: 50) }
        // An embedded payload is a named failure.
        let embedded = CBOR.tagged(18, .array([.bytes(back.protectedBytes), .map([]), .bytes([1]), .bytes(back.signature)])).encoded()
        #expect(throws: COSEError.embeddedPayload) { try COSESign1(parsing: embedded) }
        #expect(throws: COSEError.wrongTag(98)) { try COSESign1(parsing: CBOR.tagged(98, .array([])).encoded()) }
        #expect(throws: COSEError.notSign1) { try COSESign1(parsing: CBOR.array([.null]).encoded()) }
        for n in 0..<bytes.count where n % 7 == 0 {
            #expect(throws: COSEError.self) { try COSESign1(parsing: Array(bytes.prefix(n))) }
        }
    }

    @Test func timestampImprintInputs() throws {
        let claim: [UInt8] = [0xA1, 0x61, 0x61, 0x01]
        let cose = try COSESign1.sign(payload: claim, algorithm: .es256, certificateChain: [[0x30, 0x00]],
                                      signer: { _ in [UInt8](repeating: 9, count: 64) })
        let v1 = try CBOR(decoding: cose.timestampImprintInput(version: .v1, claim: claim))
        #expect(v1 == .array([.text("CounterSignature"), .bytes(cose.protectedBytes), .bytes([]), .bytes(claim)]))
        let v2 = try CBOR(decoding: cose.timestampImprintInput(version: .v2, claim: claim))
        #expect(v2 == .array([.text("CounterSignature"), .bytes(cose.protectedBytes), .bytes([]),
                              .bytes([0x58, 0x40] + [UInt8](repeating: 9, count: 64))]))
        let tbs = try CBOR(decoding: cose.toBeSigned(payload: claim))
        #expect(tbs == .array([.text("Signature1"), .bytes(cose.protectedBytes), .bytes([]), .bytes(claim)]))
        // A timestamper gets the v2 input and its token lands in sigTst2.
        let stamped = try COSESign1.sign(payload: claim, algorithm: .es256, certificateChain: [[0x30, 0x00]],
                                         signer: { _ in [UInt8](repeating: 9, count: 64) },
                                         timestamper: { input in MessageDigest.sha256(input) })
        #expect(stamped.timestamp?.version == .v2)
        #expect(stamped.timestamp?.tokens == [MessageDigest.sha256(cose.timestampImprintInput(version: .v2, claim: claim))])
    }

    @Test func dataHashExclusionOutOfRange() throws {
        let dh = DataHashAssertion(exclusions: [.init(start: 5, length: 10)], hash: [])
        #expect(throws: HashAssertionError.exclusionOutOfRange) {
            try dh.computeHash(over: MemoryByteSource([UInt8](repeating: 1, count: 12)), algorithm: .sha256)
        }
        let data = [UInt8](0..<100)
        let h = try DataHashAssertion(exclusions: [.init(start: 10, length: 20), .init(start: 25, length: 10)], hash: [])
            .computeHash(over: MemoryByteSource(data), algorithm: .sha256)
        #expect(h == MessageDigest.sha256(Array(data[0..<10]) + Array(data[35...])))
    }
}

/// File and memory sources read the same bytes; the in-place chunk loop covers a range exactly.
@Suite struct ByteSourceTests {
    @Test func fileAndMemoryAgree() throws {
        let bytes = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let path = "/tmp/c2pa-bytesource-\(getpid()).bin"
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let file = try FileByteSource(path: path)
        let mem = MemoryByteSource(bytes)
        #expect(file.count == 3_000_000)
        for (at, n) in [(0, 10), (2_999_990, 10), (2_999_995, 10), (1_048_570, 20)] {
            #expect(try file.read(at: Int64(at), count: n) == (try mem.read(at: Int64(at), count: n)))
        }
        for src in [file as any ByteSource, mem] {
            var got: [UInt8] = []
            try src.forEachChunkInPlace(in: 5..<2_500_001, chunkSize: 1 << 20) { got += $0 }
            #expect(got == Array(bytes[5..<2_500_001]))
            #expect(throws: ByteSourceError.self) { try src.forEachChunkInPlace(in: 0..<3_000_001) { _ in } }
        }
        #expect(throws: ByteSourceError.self) { try FileByteSource(path: "/nonexistent/file") }
    }
}

@Suite struct JPEGScanTests {
    @Test func walksThroughScanDataToEOI() throws {
        let sos: [UInt8] = [0xFF, 0xDA, 0x00, 0x03, 0x01]
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0x4A, 0x46] + sos
            + [0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD3, 0x56] // stuffed byte and a restart marker
            + [0xFF, 0xC4, 0x00, 0x03, 0x00] + sos + [0x99, 0xFF, 0xFF, 0xD9]
        let all = try JPEGContainer.segments(of: MemoryByteSource(jpeg), throughScanData: true)
        #expect(all.map(\.marker) == [0xE0, 0xDA, 0xC4, 0xDA, 0xD9])
        #expect(all.last?.range == Int64(jpeg.count - 2)..<Int64(jpeg.count))
        #expect(try JPEGContainer.segments(of: MemoryByteSource(jpeg)).map(\.marker) == [0xE0, 0xDA])
        // Scan data without an EOI is truncated.
        #expect(throws: ContainerError.truncated(offset: 20)) {
            try JPEGContainer.segments(of: MemoryByteSource(Array(jpeg.prefix(20))), throughScanData: true)
        }
    }

    @Test func realJPEGEndsAtEOI() throws {
        guard let file = try Fixtures.bytes("signed.jpg") else { print(Fixtures.skipMessage); return }
        let all = try JPEGContainer.segments(of: MemoryByteSource(file), throughScanData: true)
        #expect(all.last?.marker == 0xD9)
        #expect(all.last?.range.upperBound == Int64(file.count))
        #expect(all.filter { $0.marker == 0xEB }.count >= 1)
    }
}

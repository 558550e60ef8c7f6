import C2PA
@testable import CaptureFormat
import Foundation
import Ground
import TestLiterals
import Testing

@Suite struct CaptureRecordTests {
    @Test func stillRoundTrips() throws {
        let r = Fixtures.still()
        let back = try CaptureRecord(decoding: r.encoded())
        #expect(back == r)
        #expect(back.carriesDigests)
        #expect(back.evidence.rawPcm == .collected(path: Fixtures.device + "/evidence/audio.caf", sha256: Fixtures.digest("audio")))
    }

    @Test func videoKeepsAllThreeSinkStatesApart() throws {
        let r = Fixtures.video()
        let bytes = r.encoded()
        let back = try CaptureRecord(decoding: bytes)
        #expect(back == r)
        #expect(back.evidence.rawPcm == .failed)
        #expect(back.evidence.ringBufferDir == .neverRecorded)
        // On the wire: CBOR null for failed, the literal text for never-recorded.
        let item = try CBOR(decoding: bytes)
        let ev = try #require(item["context"]?["captureEvidence"])
        #expect(ev["rawPcm"] == .null)
        #expect(ev["ringBufferDir"] == .text("never-recorded"))
        #expect(ev["rawPcmSha256"] == nil && ev["ringBufferSha256"] == nil)
        #expect(back.sinks.map(\.record) == [.failed, r.evidence.sensorLog, .neverRecorded, .neverRecorded, .neverRecorded])
    }

    @Test func preDigestRecordHasPathsButNoDigests() throws {
        let r = Fixtures.still(version: "0.24.9", digests: false)
        let back = try CaptureRecord(decoding: r.encoded())
        #expect(!back.carriesDigests)
        #expect(back.evidence.sensorLog.committedDigest == nil)
        #expect(back.evidence.sensorLog.path?.hasSuffix("/sensors.jsonl") == true)
        #expect(SidecarState.evaluate(back.evidence.sensorLog, found: .present(Fixtures.digest("sensors"))) == .uncommitted)
    }

    @Test func encodingIsCanonicalPerCbor2AndDecodesThere() throws {
        let still = Fixtures.still(), video = Fixtures.video()
        let answer = try Peer.run(["canon": [still.encoded(), video.encoded()].map { Data($0).map { String(format: "%02x", $0) }.joined() }])
        let canon = try #require(answer["canon"] as? [[String: Any]])
        #expect(canon.count == 2)
        #expect(canon[0]["canonical"] as? String == Data(still.encoded()).map { String(format: "%02x", $0) }.joined())
        #expect(canon[1]["canonical"] as? String == Data(video.encoded()).map { String(format: "%02x", $0) }.joined())
        let decoded = try #require(canon[1]["decoded"] as? [String: Any])
        let ctx = try #require(decoded["context"] as? [String: Any])
        let ev = try #require(ctx["captureEvidence"] as? [String: Any])
        #expect(ev["rawPcm"] is NSNull)
        #expect(ev["ringBufferDir"] as? String == "never-recorded")
        #expect(ev["sensorLogSha256"] as? String == Fixtures.digest("s").hex)
        let stillCtx = try #require((canon[0]["decoded"] as? [String: Any])?["context"] as? [String: Any])
        let pose = try #require(stillCtx["poseTrace"] as? [String: Any])
        #expect(pose["count"] as? Int == 2)
        #expect((pose["samples"] as? [[Int]])?[1] == [13, -2, 41, 31999, 101, -201, 6])
        #expect((stillCtx["mainsHz"] as? [String: Any])?["note"] as? String == "region-derived")
    }

    @Test func cbor2WrittenRecordDecodes() throws {
        // A record written by cbor2 from a plain Python structure (not by our encoder).
        let obj: [String: Any] = [
            "recordVersion": 1, "appVersion": "0.25.0", "mediaKind": "still", "captureTime": "2026-11-30T14",
            "captureIntegrity": ["captureToSignatureMs": 900],
            "context": ["captureEvidence": ["rawPcm": "never-recorded", "sensorLog": NSNull(),
                                            "ringBufferDir": "/p/evidence/ring", "ringBufferSha256": Fixtures.digest("x").hex],
                        "depth": ["absent": true, "reason": "unsupported-hardware"]],
        ]
        let answer = try Peer.run(["encode": [obj]])
        let hex = try #require(try Peer.strings(answer, "encode").first)
        let r = try CaptureRecord(decoding: try #require(Hex_decode(hex)))
        #expect(r.captureTime.rung == .hour)
        #expect(r.evidence.rawPcm == .neverRecorded)
        #expect(r.evidence.sensorLog == .failed)
        #expect(r.evidence.ringBufferDir == .collected(path: "/p/evidence/ring", sha256: Fixtures.digest("x")))
        #expect(r.depth == .absent(reason: "unsupported-hardware"))
        #expect(r.sensorIntervalCv == nil)
    }

    @Test func namedDecodeErrors() throws {
        func code(_ item: CBOR) -> String? {
            do { _ = try CaptureRecord(cbor: item); return nil } catch { return error.code }
        }
        var base = Fixtures.video().cbor
        #expect(code(base) == nil)
        // Missing sink key.
        base = Fixtures.video().cbor
        let noSink = replacing(base, at: ["context", "captureEvidence"]) { ev in
            .map(ev.mapValue!.filter { $0.key != .text("rawPcm") })
        }
        do { _ = try CaptureRecord(cbor: noSink); Issue.record("accepted a record without rawPcm") } catch {
            #expect(error == .missingKey(field: "context.captureEvidence.rawPcm"))
        }
        // A digest beside a failed sink.
        let badDigest = replacing(base, at: ["context", "captureEvidence"]) { ev in
            .map(ev.mapValue! + [CBORPair(.text("rawPcmSha256"), .text(Fixtures.digest("a").hex))])
        }
        #expect(code(badDigest) == "record.invalidValue")
        // A sink that is neither text nor null.
        let wrong = replacing(base, at: ["context", "captureEvidence"]) { ev in
            .map(ev.mapValue!.map { $0.key == .text("rawPcm") ? CBORPair($0.key, .int(3)) : $0 })
        }
        #expect(code(wrong) == "record.wrongType")
        // Duplicate key, bad time, uppercase digest.
        #expect(code(.map(base.mapValue! + [CBORPair(.text("mediaKind"), .text("still"))])) == "record.duplicateKey")
        let badTime = CBOR.map(base.mapValue!.map { $0.key == .text("captureTime") ? CBORPair($0.key, .text("2026-13-01")) : $0 })
        #expect(code(badTime) == "record.invalidValue")
        let upper = replacing(base, at: ["context", "streamedChunks"]) { s in
            .map(s.mapValue!.map { $0.key == .text("root") ? CBORPair($0.key, .text(Fixtures.digest("root").hex.uppercased())) : $0 })
        }
        #expect(code(upper) == "record.invalidValue")
        // Trailing bytes after the item.
        do { _ = try CaptureRecord(decoding: Fixtures.video().encoded() + [0x00]); Issue.record("accepted trailing bytes") } catch {
            #expect(error.code == "record.cbor.trailingBytes")
        }
        // Pose trace whose count disagrees with its samples.
        let pose = replacing(Fixtures.still().cbor, at: ["context", "poseTrace"]) { p in
            .map(p.mapValue!.map { $0.key == .text("count") ? CBORPair($0.key, .int(3)) : $0 })
        }
        do { _ = try CaptureRecord(cbor: pose); Issue.record("accepted a wrong count") } catch {
            #expect(error == .invalidValue(field: "context.poseTrace.count", reason: "count 3 but 2 samples"))
        }
    }

    @Test func sidecarStateTable() {
        let d = Fixtures.digest("a"), e = Fixtures.digest("b")
        #expect(SidecarState.evaluate(.collected(path: "/x/a", sha256: d), found: .present(d)) == .verified)
        #expect(SidecarState.evaluate(.collected(path: "/x/a", sha256: d), found: .present(e)) == .mismatch)
        #expect(SidecarState.evaluate(.collected(path: "/x/a", sha256: d), found: .absent) == .missing)
        #expect(SidecarState.evaluate(.collected(path: "/x/a", sha256: nil), found: .absent) == .uncommitted)
        #expect(SidecarState.evaluate(.failed, found: .present(d)) == .failed)
        #expect(SidecarState.evaluate(.neverRecorded, found: .absent) == .neverRecorded)
        #expect(SidecarState.allCases.map(\.rawValue) == ["verified", "mismatch", "missing", "uncommitted", "failed", "never-recorded"])
    }

    @Test func appVersionOrder() {
        #expect(AppVersion("0.24.12")! < AppVersion("0.25.0")!)
        #expect(AppVersion("0.25.0")! >= CaptureRecord.firstVersionWithDigests)
        #expect(AppVersion("0.25") == nil && AppVersion("0.25.x") == nil && AppVersion("0.25.0-beta") == nil)
    }
}

/// Rebuilds `item` with the map at `path` replaced.
func replacing(_ item: CBOR, at path: [String], _ f: (CBOR) -> CBOR) -> CBOR {
    guard let first = path.first, case .map(let pairs) = item else { return f(item) }
    return .map(pairs.map { $0.key == .text(first) ? CBORPair($0.key, replacing($0.value, at: Array(path.dropFirst()), f)) : $0 })
}

func Hex_decode(_ s: String) -> [UInt8]? {
    var out: [UInt8] = []
    var it = s.utf8.makeIterator()
    while let a = it.next() {
        guard let b = it.next(), let v = UInt8(String(decoding: [a, b], as: UTF8.self), radix: 16) else { return nil }
        out.append(v)
    }
    return out
}

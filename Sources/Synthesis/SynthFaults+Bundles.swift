import CaptureFormat
import Foundation
import Ground

extension SynthFaults {
    /// Writes `disclosure/tampered-<label>.bundle.json`: a good bundle changed the way that
    /// produces `label` (docs/capture-synth.md lists each change and its expected labels).
    static func writeTamperedBundle(_ label: BundleFailure.Label, bundles: [DisclosureProfile: DisclosureBundle],
                                    claims: [ContextClaim], folder: SynthContext.Folder) throws -> ExpectedDump.Bundle {
        guard let full = bundles[.full], let short = bundles[.short], !full.opened.isEmpty else {
            throw SynthError(StatusCode.synthInternal, "no bundles to tamper")
        }
        var b = full
        var labels: [BundleFailure.Label] = [label]
        var raw: Data?
        // A leaf to tamper: identity.device-model (always committed, never the first or last index).
        let k = b.opened.firstIndex { $0.claimId == "identity.device-model" } ?? 0
        func flipHex(_ s: String) -> String {
            var c = Array(s)
            c[0] = c[0] == "0" ? "1" : "0"
            return String(c)
        }
        switch label {
        case .malformedBundle:
            raw = Data("{\"version\": 1, \"profile\": \"full\", \"root\": 5}\n".utf8)
        case .unsupportedVersion:
            b.version = 2
        case .unknownProfile:
            b.profile = "everything"
        case .profileMismatch:
            b = short
            b.profile = "full"
        case .leafMismatch:
            b.opened[k].value += "-x"
        case .proofInvalid:
            b.opened[k].proof[0] = flipHex(b.opened[k].proof[0])
        case .indexMismatch:
            // Swap the index fields of two opened leaves: each leaf verifies at the other's index.
            let j = k + 1 < b.opened.count ? k + 1 : k - 1
            let t = b.opened[k].index
            b.opened[k].index = b.opened[j].index
            b.opened[j].index = t
        case .indexOutOfRange:
            b.opened[k].index = b.treeSize + 3
        case .indexReserved:
            b.opened[k].index = 0
        case .duplicateClaim:
            // The duplicate also breaks the accounting (opened = treeSize) and the full selection.
            b.opened.append(b.opened[k])
            labels += [.withheldCountMismatch, .profileMismatch]
        case .claimSchemaViolation:
            guard let t = b.opened.firstIndex(where: { $0.claimId == "time.year" }) else { throw SynthError(StatusCode.synthInternal, "no time.year") }
            b.opened[t].value = "20x6"
            labels.append(.leafMismatch)
        case .treeSizeMismatch:
            b.treeSize += 1
        case .withheldCountMismatch:
            b = short
            b.withheldCount += 1
        case .neverRecordedMismatch:
            guard !b.neverRecorded.isEmpty else { throw SynthError(StatusCode.synthInternal, "nothing never-recorded") }
            b.neverRecorded.removeFirst()
        case .inventoryMismatch:
            guard !b.inventoryEntries.isEmpty else { throw SynthError(StatusCode.synthInternal, "empty inventory") }
            b.inventoryEntries.removeFirst()
            // The bundle's own neverRecorded list no longer matches its inventory either.
            labels += [.inventoryMetaLeafMismatch, .neverRecordedMismatch]
        case .inventoryMetaLeafMismatch:
            // Count-preserving relabel of a withheld claim (location.city in the short bundle) as never-recorded.
            b = short
            let id = "location.city"
            b.neverRecorded = (b.neverRecorded + [id]).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
            b.inventoryEntries = (b.inventoryEntries + [InventoryEntry(claimId: id, rung: 3)])
                .sorted { Array($0.claimId.utf8).lexicographicallyPrecedes(Array($1.claimId.utf8)) }
            b.withheldCount -= 1
            // Also caught by the signed inventory and by the accounting (withheld = treeSize − 1 − opened).
            labels += [.inventoryMismatch, .neverRecordedMismatch, .withheldCountMismatch]
        case .rootMismatch:
            b.root = flipHex(b.root)
        }
        let name = "tampered-\(label.rawValue).bundle.json"
        try (raw ?? b.encodedJSON()).write(to: URL(fileURLWithPath: folder.abs + "/disclosure/" + name))
        let sorted = Set(labels.map(\.rawValue)).sorted()
        return ExpectedDump.Bundle(file: folder.rel + "/disclosure/" + name, profile: raw == nil ? b.profile : "",
                                   result: "failed", failureLabels: sorted, openedLeaves: raw == nil ? b.opened.count : 0,
                                   withheldCount: raw == nil ? b.withheldCount : 0)
    }
}

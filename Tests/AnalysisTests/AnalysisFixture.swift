import ArchiveLMDB
import CAS
import Foundation
import Ingest

/// Scratch folders (removed at exit) and fresh archives for the analysis tests.
enum AnalysisFixture {
    static let root: String = {
        let p = NSTemporaryDirectory() + "analysis-tests-\(getpid())"
        try? FileManager.default.createDirectory(atPath: p, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: AnalysisFixture.root) }
        return p
    }()

    static func scratch(_ name: String) -> String {
        let p = root + "/\(name)-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: p, withIntermediateDirectories: true)
        return p
    }

    /// A new archive (small initial map: growth is exercised).
    static func archive() throws -> LMDBArchive {
        var o = ContentStore.Options()
        o.environment.mapSize = 4 << 20
        return try LMDBArchive(store: ContentStore.create(at: scratch("archive") + "/archive", options: o))
    }
}

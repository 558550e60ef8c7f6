import CAV
import Foundation
import Ground
@testable import Media
import TestLiterals
import Testing

/// libav through the loader (Sources/CAVLoader): the libraries named after the headers built
/// against, mapped into this process by the first media call, and the error when they cannot be
/// loaded. The unloadable case needs a fresh process: IndexerTests/LazyLibAVTests.
@Suite struct LibAVLoadingTests {
    @Test func libraryNamesFollowTheHeaders() {
        #expect(LibAV.libraryNames == ["libavutil.so.\(LIBAVUTIL_VERSION_MAJOR)", "libswscale.so.\(LIBSWSCALE_VERSION_MAJOR)",
                                       "libavcodec.so.\(LIBAVCODEC_VERSION_MAJOR)", "libavformat.so.\(LIBAVFORMAT_VERSION_MAJOR)"])
    }

    @Test func mediaWorkMapsTheLibrariesItLoaded() throws {
        let facts = try MediaFacts.read(path: try MediaFixtures.jpeg())
        #expect(facts.streams.first?.codec == "mjpeg")
        #expect(LibAV.isAvailable)
        // Read to the end (a /proc file states size 0).
        let handle = try #require(FileHandle(forReadingAtPath: "/proc/self/maps"))
        let maps = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
        try handle.close()
        for name in LibAV.libraryNames { #expect(maps.contains("/" + name), "\(name) not mapped") }
        // The version libavcodec's thumbnail tool records (videos) is the loaded libavcodec's (major
        // from the header).
        #expect(Thumbnail.libavTool.hasPrefix("libavcodec mjpeg \(LIBAVCODEC_VERSION_MAJOR)."), "\(Thumbnail.libavTool)")
    }

    @Test func unavailableLibrariesHaveAStableCode() {
        let e = MediaError.libraryUnavailable(detail: "/x/libavutil.so.57: cannot open shared object file")
        #expect(e.code == "media.libavUnavailable")
        #expect(e.description == "media.libavUnavailable: /x/libavutil.so.57: cannot open shared object file")
    }
}

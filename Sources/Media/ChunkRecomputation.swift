import CaptureFormat
import Ground

/// The outcome of recomputing a streamed-chunk commitment from a media file. Facts only:
/// `not-recomputable` is never a failure (the seed: the interleaving is not recorded).
public struct ChunkRecomputation: Codable, Sendable, Equatable {
    public enum State: String, Codable, Sendable {
        /// An order tried reproduces the signed root; `order` says which.
        case recomputed
        /// A commitment exists but no order tried reproduces it (or the tracks could not be read
        /// in full, or their chunk counts differ from the record: see `findings`).
        case notRecomputable = "not-recomputable"
        /// No commitment to recompute (fallback camera path, unsigned file, no record).
        case absent
    }

    public struct Counts: Codable, Sendable, Equatable {
        public var computed: Int
        public var recorded: Int
        public init(computed: Int, recorded: Int) {
            self.computed = computed
            self.recorded = recorded
        }
    }

    public var state: State
    /// Orders whose root was computed and compared.
    public var ordersTried: Int
    /// The order that reproduced the root: `base` (completion-time order) or the perturbation,
    /// e.g. `window: audio[0] -1` (audio chunk 0 placed one video chunk earlier than base).
    public var order: String?
    public var videoChunks: Counts?
    public var audioChunks: Counts?
    /// The recorded root (JSON: lowercase hex).
    public var rootRecorded: ContentID?
    /// The root over the base order; equals `rootRecorded` when `order` is `base`.
    public var rootComputed: ContentID?
    /// Why the bytes could not all be read, or why no search ran.
    public var findings: [MediaFinding]

    public init(state: State, ordersTried: Int = 0, order: String? = nil, videoChunks: Counts? = nil,
                audioChunks: Counts? = nil, rootRecorded: ContentID? = nil, rootComputed: ContentID? = nil,
                findings: [MediaFinding] = []) {
        self.state = state
        self.ordersTried = ordersTried
        self.order = order
        self.videoChunks = videoChunks
        self.audioChunks = audioChunks
        self.rootRecorded = rootRecorded
        self.rootComputed = rootComputed
        self.findings = findings
    }
}

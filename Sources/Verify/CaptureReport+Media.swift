import Ground
import Media

extension CaptureReport {
    /// One media file's container and stream facts (module Media), or why they could not be read.
    public struct MediaFile: Codable, Sendable, Equatable {
        /// The file's role in `files`: `media` (delivery file), `audio` (audio master), `ring-frame`.
        public var role: FileRole
        /// Relative path as in `files`.
        public var file: String
        public var facts: MediaFacts?
        public var error: ItemError?
        public init(role: FileRole, file: String, facts: MediaFacts?, error: ItemError?) {
            self.role = role
            self.file = file
            self.facts = facts
            self.error = error
        }
    }
}

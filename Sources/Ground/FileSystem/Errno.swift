#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A POSIX error number as a typed value (swift-system's `Errno`): what a system call of the
/// file-system shim failed with. `description` is the C library's message and the symbolic name.
public struct Errno: RawRepresentable, Error, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let noSuchFileOrDirectory = Errno(rawValue: ENOENT)
    public static let permissionDenied = Errno(rawValue: EACCES)
    public static let notPermitted = Errno(rawValue: EPERM)
    public static let tooManySymbolicLinkLevels = Errno(rawValue: ELOOP)
    public static let notDirectory = Errno(rawValue: ENOTDIR)
    public static let isDirectory = Errno(rawValue: EISDIR)
    public static let interrupted = Errno(rawValue: EINTR)
    public static let tryAgain = Errno(rawValue: EAGAIN)
    public static let invalidArgument = Errno(rawValue: EINVAL)
    public static let fileExists = Errno(rawValue: EEXIST)
    public static let noSpace = Errno(rawValue: ENOSPC)
    public static let ioError = Errno(rawValue: EIO)
    public static let nameTooLong = Errno(rawValue: ENAMETOOLONG)
    public static let tooManyOpenFiles = Errno(rawValue: EMFILE)
    public static let badFileDescriptor = Errno(rawValue: EBADF)
    public static let noDevice = Errno(rawValue: ENXIO)
    public static let readOnlyFileSystem = Errno(rawValue: EROFS)
    public static let crossDevice = Errno(rawValue: EXDEV)
    public static let busy = Errno(rawValue: EBUSY)

    /// The calling thread's `errno` right now.
    public static var current: Errno { Errno(rawValue: errno) }

    /// `strerror` text with the number, e.g. `No such file or directory (errno 2)`.
    public var description: String {
        let text = strerror(rawValue).map { String(cString: $0) } ?? "error"
        return "\(text) (errno \(rawValue))"
    }
}

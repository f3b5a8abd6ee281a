import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The files a download keeps beside its destination while it runs, and after the process that ran
/// it is gone: the partial file, the record of what the body in it is, and the lock that says a
/// download is writing it.
///
/// - The partial file of a download to `DIR/NAME` is `DIR/.NAME.partial`, the same for every download
///   to that destination, so that the next one finds it; when another download holds it, a download
///   writes to a file of its own, `DIR/.NAME.UUID.partial`, which nothing resumes but its resume data.
/// - Its record, `PARTIAL.json`, holds a digest of the URL asked for and the body's validator and
///   length, written (atomically, by rename) before the first byte of a body that can be resumed, and
///   removed with the file.
/// - A download holds an exclusive `flock(2)` on the file while it writes: the kernel lets go of it
///   when the process ends, however it ends, so a lock never outlives its download. On a file system
///   without locks (some network file systems) no download uses the shared file: each writes a file
///   of its own, unlocked, which nothing lists or removes but its resume data.
enum PartialFile {
    /// What a partial file holds: the body of `url` whose validator and length these are.
    struct Record: Codable, Equatable {
        /// The SHA-256 of the URL the download asked for, before any redirect: only ever compared, and
        /// never on disk as it is, since a URL may carry a token or a signature.
        var urlDigest: String
        /// The strong `ETag`, or `nil`.
        var entityTag: String?
        /// The `Last-Modified`, used when there is no strong `entityTag`.
        var lastModified: String?
        /// The length of the whole body.
        var length: Int64

        /// The record of a body of `url`.
        init(url: URL, entityTag: String?, lastModified: String?, length: Int64) {
            urlDigest = SHA256.hexDigest(url.absoluteString)
            self.entityTag = entityTag
            self.lastModified = lastModified
            self.length = length
        }

        /// Whether this is the record of a body of `url`.
        func isOf(_ url: URL?) -> Bool {
            url.map { SHA256.hexDigest($0.absoluteString) == urlDigest } ?? false
        }

        /// Whether it speaks of the same body as `resumeData`: the same validator and length.
        func matches(_ resumeData: DownloadResumeData) -> Bool {
            entityTag == resumeData.entityTag && lastModified == resumeData.lastModified && length == resumeData.expectedBytes
        }
    }

    /// Whether the partial file of `resumeData` may still hold its body: its record is gone (never
    /// written, or lost), or speaks of the same body. A record of another body means a later download
    /// to the destination has the file by now.
    static func mayHold(_ resumeData: DownloadResumeData) -> Bool {
        readRecord(of: resumeData.partialFileURL).map { $0.matches(resumeData) } ?? true
    }

    /// A partial file opened and locked for writing.
    struct Claim {
        /// The open file; closing it lets go of the lock.
        var handle: FileHandle
        /// Its bytes when it was opened.
        var size: Int64
    }

    /// The shared partial file of downloads to `destination`.
    static func shared(for destination: URL) -> URL {
        destination.deletingLastPathComponent().appendingPathComponent(".\(destination.lastPathComponent).partial")
    }

    /// A partial file of one download's own, beside `destination`.
    static func unique(for destination: URL) -> URL {
        destination.deletingLastPathComponent().appendingPathComponent(".\(destination.lastPathComponent).\(UUID().uuidString).partial")
    }

    /// The record beside `partial`.
    static func record(of partial: URL) -> URL {
        partial.appendingPathExtension("json")
    }

    /// Whether `url` is named as partial files are: a hidden file `.NAME.partial` or `.NAME.UUID.partial`.
    static func isPartialFileName(_ url: URL) -> Bool {
        let name = url.lastPathComponent
        return url.isFileURL && name.hasPrefix(".") && name.hasSuffix(".partial") && name.utf8.count > ".partial".utf8.count + 1
    }

    /// Opens `partial` (created when `creating` and missing) and locks it, unless another download
    /// holds it; `nil` then, or when it cannot be opened, is no regular file of this user's, or is a
    /// symbolic link. A file it created and then could not claim is removed again.
    ///
    /// Its name is one anybody can guess, so in a directory others can write to (the temporary
    /// directory) a file or link planted there is never written through or gone on with.
    /// - Parameter requiringLock: Whether a file system without locks fails the claim (for files
    ///   another download may open: the shared one, and any being listed or removed); a file of one
    ///   download's own is claimed unlocked there.
    static func claim(_ partial: URL, creating: Bool, requiringLock: Bool = true) -> Claim? {
        // The path is opened, locked, and checked to still name what was locked: a download that
        // finished or gave up in the meantime renamed or removed the file it held.
        for _ in 0..<3 {
            var created = false
            var descriptor = open(partial.path, O_RDWR | O_CLOEXEC | O_NOFOLLOW)
            if descriptor < 0, errno == ENOENT, creating {
                descriptor = open(partial.path, O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_CREAT | O_EXCL, 0o666)
                created = descriptor >= 0
                // Another download created it in between: open that one.
                if descriptor < 0, errno == EEXIST { continue }
            }
            guard descriptor >= 0 else { return nil }
            let abandon = {
                if created { unlink(partial.path) }
                close(descriptor)
            }
            switch lock(descriptor) {
            case .held:
                close(descriptor)
                return nil
            case .unsupported where requiringLock:
                abandon()
                return nil
            case .locked, .unsupported:
                break
            }
            var held = stat()
            var named = stat()
            guard fstat(descriptor, &held) == 0, isOwnRegularFile(held) else {
                close(descriptor)
                return nil
            }
            guard stat(partial.path, &named) == 0, named.st_ino == held.st_ino, named.st_dev == held.st_dev else {
                close(descriptor)
                continue
            }
            return Claim(handle: FileHandle(fileDescriptor: descriptor, closeOnDealloc: true), size: Int64(held.st_size))
        }
        return nil
    }

    /// What taking a lock came to.
    private enum LockOutcome {
        /// The lock is this process's.
        case locked
        /// Another open file holds it.
        case held
        /// The file system has no locks.
        case unsupported
    }

    /// Takes the exclusive lock of `descriptor`, trying again for a little while: a listing of partial
    /// files holds each for no longer than it takes to read its record, a download for as long as it
    /// runs.
    private static func lock(_ descriptor: Int32) -> LockOutcome {
        for pause in [0, 1_000, 4_000, 16_000, 64_000] as [useconds_t] {
            if pause > 0 { usleep(pause) }
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return .locked }
            switch errno {
            case EWOULDBLOCK, EINTR: continue
            default: return .unsupported
            }
        }
        return .held
    }

    /// Whether `status` is of a regular file of this process's user.
    private static func isOwnRegularFile(_ status: stat) -> Bool {
        // One link only: a hard link planted at the name would make the download write another file.
        (status.st_mode & S_IFMT) == S_IFREG && status.st_uid == geteuid() && status.st_nlink == 1
    }

    /// The record beside `partial`, or `nil` when there is none, it is no regular file of this user's
    /// of at most 64 KiB (a link is never followed), or it does not read.
    static func readRecord(of partial: URL) -> Record? {
        let descriptor = open(record(of: partial).path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { return nil }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var status = stat()
        guard fstat(descriptor, &status) == 0, isOwnRegularFile(status), status.st_size <= 64 * 1024,
            let data = try? handle.read(upToCount: 64 * 1024 + 1)
        else { return nil }
        return try? JSONDecoder().decode(Record.self, from: data)
    }

    /// Writes the record beside `partial` in one step (a new file renamed over the old), or removes
    /// it when `record` is `nil`.
    /// - Returns: Whether it worked.
    @discardableResult
    static func writeRecord(_ record: Record?, of partial: URL) -> Bool {
        let target = Self.record(of: partial)
        guard let record else {
            return unlink(target.path) == 0 || errno == ENOENT
        }
        let next = target.appendingPathExtension("new")
        // Created anew (O_EXCL, which never follows a link), never written through what is there.
        unlink(next.path)
        guard let data = try? JSONEncoder().encode(record), (try? data.write(to: next, options: .withoutOverwriting)) != nil,
            chmod(next.path, 0o600) == 0
        else {
            unlink(target.path)
            return false
        }
        return rename(next.path, target.path) == 0
    }

    /// Removes `partial` and its record, unless a download holds it.
    static func remove(_ partial: URL) {
        guard isPartialFileName(partial), let claim = Self.claim(partial, creating: false) else { return }
        writeRecord(nil, of: partial)
        unlink(partial.path)
        try? claim.handle.close()
    }
}

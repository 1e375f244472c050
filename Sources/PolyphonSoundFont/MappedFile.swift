import PolyphonSoundFontCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes of a file, memory-mapped read-only so opening a 150 MB bank costs page-table
/// entries rather than reads: only the pages a parser or a voice touches are ever loaded.
///
/// Falls back to reading the file into memory this object owns when `mmap` is refused (some
/// file systems, pipes). Immutable after creation; the bytes stay valid until it is released,
/// and ``SampleData`` keeps it alive for as long as any bank refers to its samples.
public final class MappedFile: @unchecked Sendable {
    /// The whole file.
    public let bytes: UnsafeRawBufferPointer
    /// True when ``bytes`` is a mapping of the file; false when it is a private copy.
    public let isMapped: Bool

    /// Maps the file at `path`.
    /// - Throws: ``SoundFontError`` with kind ``SoundFontError/Kind/cannotOpen(_:)``.
    public convenience init(path: String) throws(SoundFontError) {
        try self.init(path: path, allowMapping: true)
    }

    /// Opens `path`, mapping it unless `allowMapping` is false (tests use that to exercise the
    /// reading fallback on ordinary files).
    init(path: String, allowMapping: Bool) throws(SoundFontError) {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw Self.openError(path) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Self.openError(path) }
        let size = Int(info.st_size)

        if allowMapping, size > 0, (info.st_mode & S_IFMT) == S_IFREG {
            let address: UnsafeMutableRawPointer? = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0)
            if let address, address != MAP_FAILED {
                bytes = UnsafeRawBufferPointer(start: UnsafeRawPointer(address), count: size)
                isMapped = true
                return
            }
        }

        // mmap refused (or an empty or special file): read it all, growing as needed since the
        // size from fstat may be 0 for special files.
        var capacity = max(size, 1 << 16)
        var storage = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        var count = 0
        while true {
            if count == capacity {
                let bigger = UnsafeMutableRawPointer.allocate(byteCount: capacity * 2, alignment: 16)
                bigger.copyMemory(from: storage, byteCount: count)
                storage.deallocate()
                storage = bigger
                capacity *= 2
            }
            let n = read(fd, storage + count, capacity - count)
            if n < 0 {
                if errno == EINTR { continue }
                storage.deallocate()
                throw Self.openError(path)
            }
            if n == 0 { break }
            count += n
        }
        bytes = UnsafeRawBufferPointer(start: UnsafeRawPointer(storage), count: count)
        isMapped = false
    }

    /// Copies `contents` into 16-byte aligned memory this object owns.
    public init(copying contents: [UInt8]) {
        let storage = UnsafeMutableRawPointer.allocate(byteCount: max(contents.count, 1), alignment: 16)
        contents.withUnsafeBytes { source in
            if let base = source.baseAddress { storage.copyMemory(from: base, byteCount: source.count) }
        }
        bytes = UnsafeRawBufferPointer(start: UnsafeRawPointer(storage), count: contents.count)
        isMapped = false
    }

    deinit {
        guard let base = bytes.baseAddress else { return }
        if isMapped {
            munmap(UnsafeMutableRawPointer(mutating: base), bytes.count)
        } else {
            UnsafeMutableRawPointer(mutating: base).deallocate()
        }
    }

    private static func openError(_ path: String) -> SoundFontError {
        let why = String(cString: strerror(errno))
        return SoundFontError(file: path, chunk: "file", offset: 0, kind: .cannotOpen(why))
    }
}

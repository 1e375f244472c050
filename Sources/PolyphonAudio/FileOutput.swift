#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An append-only file with a fixed-size write buffer and in-place patching of bytes already
/// written (for the size fields of a header, filled in when the length is finally known).
///
/// The buffer is allocated once, so writing a file of any length uses the same memory.
final class FileOutput {
    /// The path the file was created at, for error messages.
    let path: String
    private var descriptor: Int32
    private let buffer: UnsafeMutableRawBufferPointer
    private var bufferedCount = 0
    /// The number of bytes appended so far, flushed or not: the offset of the next byte.
    private(set) var length: Int64 = 0

    /// Creates (or truncates) the file at `path`.
    init(path: String, bufferCapacity: Int) throws {
        self.path = path
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else {
            throw AudioFileError.cannotOpen(path: path, reason: systemErrorText())
        }
        descriptor = fd
        buffer = .allocate(byteCount: max(bufferCapacity, 64), alignment: 16)
    }

    deinit {
        if descriptor >= 0 { _ = closeDescriptor(descriptor) }
        buffer.deallocate()
    }

    /// Whether ``close()`` has been called.
    var isClosed: Bool { descriptor < 0 }

    /// The bytes free in the buffer right now.
    var freeCapacity: Int { buffer.count - bufferedCount }

    /// Appends `bytes`, flushing as needed.
    func append(_ bytes: [UInt8]) throws {
        var index = 0
        while index < bytes.count {
            if freeCapacity == 0 { try flush() }
            let count = min(freeCapacity, bytes.count - index)
            bytes.withUnsafeBytes { source in
                (buffer.baseAddress! + bufferedCount).copyMemory(
                    from: source.baseAddress! + index, byteCount: count)
            }
            bufferedCount += count
            length += Int64(count)
            index += count
        }
    }

    /// Makes at least `minimum` bytes free (flushing if needed), lets `body` fill some of them
    /// and records the count it returns as appended.
    func appendInPlace(minimum: Int, _ body: (UnsafeMutableRawPointer, Int) -> Int) throws {
        if freeCapacity < minimum { try flush() }
        precondition(freeCapacity >= minimum, "FileOutput buffer smaller than one frame")
        let written = body(buffer.baseAddress! + bufferedCount, freeCapacity)
        bufferedCount += written
        length += Int64(written)
    }

    /// Writes the buffered bytes to the file.
    func flush() throws {
        guard descriptor >= 0 else { throw AudioFileError.closed(path: path) }
        var offset = 0
        while offset < bufferedCount {
            let result = write(descriptor, buffer.baseAddress! + offset, bufferedCount - offset)
            if result < 0 {
                if errno == EINTR { continue }
                throw AudioFileError.ioFailure(path: path, reason: systemErrorText())
            }
            offset += result
        }
        bufferedCount = 0
    }

    /// Overwrites bytes already appended at `offset` (after flushing), leaving the append
    /// position unchanged.
    func patch(_ bytes: [UInt8], at offset: Int64) throws {
        precondition(offset >= 0 && offset + Int64(bytes.count) <= length)
        try flush()
        var done = 0
        while done < bytes.count {
            let result = bytes.withUnsafeBytes { source in
                pwrite(descriptor, source.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done))
            }
            if result < 0 {
                if errno == EINTR { continue }
                throw AudioFileError.ioFailure(path: path, reason: systemErrorText())
            }
            done += result
        }
    }

    /// Flushes and closes the file. Closing twice is harmless.
    func close() throws {
        guard descriptor >= 0 else { return }
        var firstError: AudioFileError?
        do { try flush() } catch let error as AudioFileError { firstError = error }
        if closeDescriptor(descriptor) != 0, firstError == nil {
            firstError = .ioFailure(path: path, reason: systemErrorText())
        }
        descriptor = -1
        if let firstError { throw firstError }
    }
}

/// The C `close`, named apart from ``FileOutput/close()``.
@inline(__always)
private func closeDescriptor(_ fd: Int32) -> Int32 {
    #if canImport(Glibc)
    Glibc.close(fd)
    #elseif canImport(Musl)
    Musl.close(fd)
    #else
    Darwin.close(fd)
    #endif
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A C library opened at run time with `dlopen`, so that Polyphon builds without its headers
/// and runs without it until something needs it (libsndfile, libvorbisfile, libasound,
/// libpulse-simple).
///
/// Each wrapper looks its functions up once with ``symbol(_:as:)`` and turns a ``Failure`` into
/// its own error, with the advice on how to install the library. The library stays loaded as
/// long as this object lives.
package final class DynamicLibrary: @unchecked Sendable {
    // @unchecked: immutable after init; dlsym and dlclose are thread-safe.

    /// Why a library cannot be used.
    package enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// No candidate could be opened; the loader's message for the first one.
        case notLoaded(String)
        /// The library opened but lacks a function, so it is not the library expected.
        case missingSymbol(String)

        /// The loader's message, or `sf_open is missing`.
        package var description: String {
            switch self {
            case .notLoaded(let message): return message
            case .missingSymbol(let name): return "\(name) is missing"
            }
        }
    }

    /// The name or path the library was loaded from.
    package let path: String
    private let handle: UnsafeMutableRawPointer

    /// The names to try: an explicit `path`, else the value of `environmentVariable` when it is
    /// set and not empty, else `defaults`.
    package static func candidates(path: String?, environmentVariable: String, defaults: [String]) -> [String] {
        candidates(path: path, environmentOverride: getenv(environmentVariable).map { String(cString: $0) },
                   defaults: defaults)
    }

    /// The names to try: `path`, else a non-empty `environmentOverride`, else `defaults`.
    package static func candidates(path: String?, environmentOverride: String?, defaults: [String]) -> [String] {
        if let path { return [path] }
        if let environmentOverride, !environmentOverride.isEmpty { return [environmentOverride] }
        return defaults
    }

    /// Opens the first of `candidates` that loads.
    package init(firstOf candidates: [String]) throws(Failure) {
        var firstFailure: String?
        for candidate in candidates {
            if let handle = dlopen(candidate, RTLD_NOW | RTLD_LOCAL) {
                self.handle = handle
                path = candidate
                return
            }
            if firstFailure == nil {
                firstFailure = dlerror().map { String(cString: $0) } ?? "\(candidate) not found"
            }
        }
        throw .notLoaded(firstFailure ?? "no library named")
    }

    deinit { dlclose(handle) }

    /// Why a wrapper could not be made: the library tried and one sentence naming it, for the
    /// wrapper's own error (which adds how to install it).
    package struct LoadFailure: Error, Hashable, Sendable {
        /// The library that failed: the first candidate, or the one that opened but is wrong.
        package var path: String
        /// `libsndfile could not be loaded (…)`, or `PATH: sf_open is missing; is it libsndfile?`
        package var message: String
    }

    /// Opens the first of `candidates` that loads and makes `make`'s wrapper of it, which looks
    /// its functions up; `libraryName` (such as `libsndfile`) names it in a failure.
    package static func load<Wrapper>(
        _ libraryName: String, from candidates: [String],
        as make: (DynamicLibrary) throws(Failure) -> Wrapper
    ) throws(LoadFailure) -> Wrapper {
        let library: DynamicLibrary
        do {
            library = try DynamicLibrary(firstOf: candidates)
        } catch {
            throw LoadFailure(path: candidates.first ?? libraryName,
                              message: "\(libraryName) could not be loaded (\(error))")
        }
        do {
            return try make(library)
        } catch {
            throw LoadFailure(path: library.path, message: "\(library.path): \(error); is it \(libraryName)?")
        }
    }

    /// The function `name`, as the C function type `type`.
    package func symbol<T>(_ name: String, as type: T.Type = T.self) throws(Failure) -> T {
        guard let address = dlsym(handle, name) else { throw .missingSymbol(name) }
        return unsafeBitCast(address, to: type)
    }
}

// The C library of the platform, for POSIX files and dlopen. Foundation is not needed for either,
// and importing the C module directly keeps this module usable where Foundation is trimmed.
#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Musl)
@_exported import Musl
#elseif canImport(Darwin)
@_exported import Darwin
#endif

/// The text of the C library's current `errno`, for error messages.
func systemErrorText(_ code: Int32 = errno) -> String {
    guard let text = strerror(code) else { return "error \(code)" }
    return String(cString: text)
}

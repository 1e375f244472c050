// The C library of the platform, for POSIX files, dlopen and maths. The module imports it
// file by file rather than Foundation, which it does not need.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The text of the C library's current `errno`, for error messages.
func systemErrorText(_ code: Int32 = errno) -> String {
    guard let text = strerror(code) else { return "error \(code)" }
    return String(cString: text)
}

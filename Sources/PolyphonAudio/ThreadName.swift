#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Names the calling thread, as `top -H`, debuggers and the live tests' allocation probe see
/// it (at most 15 bytes on Linux). For the native layers' own threads: the live render thread
/// and the synthesizer's voice workers.
package func nameCurrentThread(_ name: String) {
    #if canImport(Darwin)
    pthread_setname_np(name)
    #else
    // glibc declares pthread_setname_np only under _GNU_SOURCE, which Swift's Glibc module does
    // not define: look it up instead (it is in every glibc since 2.12).
    typealias SetName = @convention(c) (pthread_t, UnsafePointer<CChar>) -> Int32
    if let address = dlsym(nil, "pthread_setname_np") {
        _ = unsafeBitCast(address, to: SetName.self)(pthread_self(), name)
    }
    #endif
}

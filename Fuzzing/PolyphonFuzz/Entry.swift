import Foundation

// Built two ways. With `-D FUZZING` and `-sanitize=fuzzer,address` (Scripts/fuzz.sh) libFuzzer
// owns `main` and calls LLVMFuzzerTestOneInput with the target POLYPHON_FUZZ_TARGET names.
// Without it (every ordinary `swift build`), a plain tool writes the seed corpora and replays
// inputs, so a crash file can be run outside the fuzzer.
#if FUZZING
private let selectedTarget: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["POLYPHON_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
        fatalError("set POLYPHON_FUZZ_TARGET to one of: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))")
    }
    return target
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    selectedTarget.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}
#else
@main
enum PolyphonFuzzTool {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        switch (arguments.first, arguments.count) {
        case ("targets", 1):
            for target in FuzzTarget.allCases { print(target.rawValue, target.renders ? "renders" : "parses") }
        case ("seeds", 3):
            guard let target = FuzzTarget(rawValue: arguments[1]) else { usage() }
            let directory = arguments[2]
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            for seed in FuzzSeeds.seeds(for: target) {
                FileManager.default.createFile(atPath: directory + "/" + seed.name, contents: Data(seed.bytes))
            }
        case ("replay", 3...):
            guard let target = FuzzTarget(rawValue: arguments[1]) else { usage() }
            for path in arguments.dropFirst(2) {
                guard let data = FileManager.default.contents(atPath: path) else { continue }
                target.run(Array(data))
                print("ok \(path)")
            }
        default:
            usage()
        }
    }

    static func usage() -> Never {
        FileHandle.standardError.write(Data("""
            usage: PolyphonFuzz targets | seeds TARGET DIR | replay TARGET FILE...
            (the fuzzing build itself is made and run by Scripts/fuzz.sh)

            """.utf8))
        exit(64)
    }
}
#endif

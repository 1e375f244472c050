import Foundation

/// What a finished program left behind.
public struct ProcessResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
    /// Standard output as bytes.
    public var output: Data
}

/// Runs a program to completion and returns its exit status and outputs. Both pipes are drained
/// concurrently, so a chatty program cannot block on a full pipe.
public func runProcess(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                       input: Data? = nil) throws -> ProcessResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    var merged = ProcessInfo.processInfo.environment
    for (key, value) in environment { merged[key] = value }
    process.environment = merged
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    let inPipe = input.map { _ in Pipe() }
    if let inPipe { process.standardInput = inPipe } else { process.standardInput = FileHandle.nullDevice }
    try process.run()
    if let inPipe, let input {
        inPipe.fileHandleForWriting.write(input)
        try? inPipe.fileHandleForWriting.close()
    }
    nonisolated(unsafe) var errorData = Data()
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async {
        errorData = err.fileHandleForReading.readDataToEndOfFile()
        group.leave()
    }
    let outputData = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return ProcessResult(status: process.terminationStatus, stdout: String(decoding: outputData, as: UTF8.self),
                         stderr: String(decoding: errorData, as: UTF8.self), output: outputData)
}

/// Runs a program and returns its standard output, trimmed; throws if it exits non-zero.
public func run(_ executable: String, _ arguments: [String]) throws -> String {
    String(decoding: try runForData(executable, arguments), as: UTF8.self)
        .trimmingCharacters(in: .whitespacesAndNewlines)
}

/// Runs a program and returns its standard output as bytes; throws if it exits non-zero.
public func runForData(_ executable: String, _ arguments: [String]) throws -> Data {
    let result = try runProcess(executable, arguments)
    guard result.status == 0 else {
        throw TestFailure("\(executable) \(arguments) exited \(result.status): \(result.stderr)")
    }
    return result.output
}

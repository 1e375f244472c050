import Foundation

/// Which part of a batch's sorted input list one process renders: a part chosen by hand, or the
/// one a cluster scheduler's job array assigns through the environment.
///
/// `index` counts from 0, like `SLURM_ARRAY_TASK_ID` in `--array=0-(N-1)`, Kubernetes'
/// `JOB_COMPLETION_INDEX` and `AWS_BATCH_JOB_ARRAY_INDEX`. Input `k` of the sorted list belongs
/// to part `k mod N`: the parts are disjoint, cover the list, and each mixes short and long
/// directories alike.
public struct BatchShard: Sendable, Hashable, CustomStringConvertible {
    /// This part's number, from 0.
    public var index: Int
    /// The number of parts.
    public var count: Int
    /// Where the part came from, for messages: "--shard", "SLURM_ARRAY_TASK_ID" …
    public var source: String

    /// Part `index` of `count`.
    /// - Precondition: `0 <= index < count`.
    public init(index: Int, count: Int, source: String = "code") {
        precondition(count > 0 && (0..<count).contains(index), "a shard is part 0..<count of count > 0 parts")
        self.index = index
        self.count = count
        self.source = source
    }

    /// Parses `I/N` with 0 ≤ I < N; `nil` for anything else.
    public init?(_ text: String, source: String = "--shard") {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n > 0, i >= 0, i < n else { return nil }
        self.init(index: i, count: n, source: source)
    }

    /// `I/N`.
    public var description: String { "\(index)/\(count)" }

    /// Whether input number `position` of the sorted list is this part's.
    public func contains(position: Int) -> Bool { position % count == index }

    /// This part's inputs of the whole sorted list `inputs`, in order.
    public func part(of inputs: [BatchInput]) -> [BatchInput] {
        inputs.enumerated().filter { contains(position: $0.offset) }.map(\.element)
    }

    /// `path` with "-shardI" before its extension: each part writes a report of its own, and
    /// ``BatchReport/shardReports(in:)`` finds them for merging.
    public func reportPath(_ path: String) -> String {
        let ext = (path as NSString).pathExtension
        let base = (path as NSString).deletingPathExtension
        return base + "-shard\(index)" + (ext.isEmpty ? "" : "." + ext)
    }

    /// Why the environment names no usable part.
    public enum EnvironmentError: Error, Sendable, Hashable, CustomStringConvertible {
        /// `indexVariable` is set, but neither a count nor `countVariable` is.
        case countMissing(indexVariable: String, countVariable: String)
        /// The index is outside 0..<count.
        case indexOutOfRange(indexVariable: String, index: Int, count: Int)

        /// One line naming the variables.
        public var description: String {
            switch self {
            case .countMissing(let indexVariable, let countVariable):
                return "\(indexVariable) is set but the number of parts is not: set \(countVariable)"
            case .indexOutOfRange(let indexVariable, let index, let count):
                return "\(indexVariable) gives part \(index) of \(count): it must be 0–\(count - 1)"
            }
        }
    }

    /// The part a scheduler assigns through `environment`, if any: Slurm job arrays
    /// (`SLURM_ARRAY_TASK_ID` less `SLURM_ARRAY_TASK_MIN`, of `SLURM_ARRAY_TASK_COUNT` or
    /// max − min + 1), Kubernetes Indexed Jobs (`JOB_COMPLETION_INDEX` of `count` or
    /// `JOB_COMPLETIONS`), AWS Batch array jobs (`AWS_BATCH_JOB_ARRAY_INDEX` of `count` or
    /// `AWS_BATCH_JOB_ARRAY_SIZE`). `count`, when given, wins over the environment's count.
    ///
    /// - Returns: `nil` when no scheduler's index is set.
    /// - Throws: ``EnvironmentError`` when an index is set but its count is missing or too small.
    public static func fromEnvironment(_ environment: [String: String], count: Int? = nil) throws(EnvironmentError) -> BatchShard? {
        func number(_ key: String) -> Int? { environment[key].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } }
        func make(_ index: Int, _ count: Int?, _ source: String, _ countName: String) throws(EnvironmentError) -> BatchShard {
            guard let count, count > 0 else { throw .countMissing(indexVariable: source, countVariable: countName) }
            guard index >= 0, index < count else { throw .indexOutOfRange(indexVariable: source, index: index, count: count) }
            return BatchShard(index: index, count: count, source: source)
        }
        if let id = number("SLURM_ARRAY_TASK_ID") {
            let low = number("SLURM_ARRAY_TASK_MIN") ?? 0
            var parts = count ?? number("SLURM_ARRAY_TASK_COUNT")
            if parts == nil, let high = number("SLURM_ARRAY_TASK_MAX") { parts = high - low + 1 }
            return try make(id - low, parts, "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT")
        }
        if let id = number("JOB_COMPLETION_INDEX") {
            return try make(id, count ?? number("JOB_COMPLETIONS"), "JOB_COMPLETION_INDEX", "JOB_COMPLETIONS")
        }
        if let id = number("AWS_BATCH_JOB_ARRAY_INDEX") {
            return try make(id, count ?? number("AWS_BATCH_JOB_ARRAY_SIZE"), "AWS_BATCH_JOB_ARRAY_INDEX",
                            "AWS_BATCH_JOB_ARRAY_SIZE")
        }
        return nil
    }
}

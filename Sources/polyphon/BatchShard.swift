import ArgumentParser

/// Which part of a batch's sorted input list this process renders: `--shard I/N`, or the part a
/// cluster scheduler's job array assigns.
///
/// `index` counts from 0, like `SLURM_ARRAY_TASK_ID` in `--array=0-(N-1)`, Kubernetes'
/// `JOB_COMPLETION_INDEX` and `AWS_BATCH_JOB_ARRAY_INDEX`. Input `k` of the sorted list belongs
/// to part `k mod N`: the parts are disjoint, cover the list, and each mixes short and long
/// directories alike.
struct BatchShard: Sendable, Hashable, CustomStringConvertible {
    var index: Int
    var count: Int
    /// Where it came from: "--shard", "SLURM_ARRAY_TASK_ID" …
    var source: String

    /// Parses `I/N` with 0 ≤ I < N.
    init?(argument: String, source: String = "--shard") {
        let parts = argument.split(separator: "/")
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n > 0, i >= 0, i < n else { return nil }
        self.init(index: i, count: n, source: source)
    }

    init(index: Int, count: Int, source: String) {
        self.index = index
        self.count = count
        self.source = source
    }

    var description: String { "\(index)/\(count)" }

    /// Whether input number `position` of the sorted list is this part's.
    func contains(position: Int) -> Bool { position % count == index }

    /// The part a scheduler assigns through the environment, if any: Slurm job arrays
    /// (`SLURM_ARRAY_TASK_ID` less `SLURM_ARRAY_TASK_MIN`, of `SLURM_ARRAY_TASK_COUNT` or
    /// max − min + 1), Kubernetes Indexed Jobs (`JOB_COMPLETION_INDEX` of `shardCount` or
    /// `JOB_COMPLETIONS`), AWS Batch array jobs (`AWS_BATCH_JOB_ARRAY_INDEX` of `shardCount` or
    /// `AWS_BATCH_JOB_ARRAY_SIZE`). `shardCount` (`--shard-count`) wins over the environment's
    /// count.
    /// - Throws: a usage error (exit code 64) when an index is present but its count is missing
    ///   or too small.
    static func fromEnvironment(_ env: [String: String], shardCount: Int?) throws -> BatchShard? {
        func number(_ key: String) -> Int? { env[key].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } }
        func make(_ index: Int, _ count: Int?, _ source: String, _ countNames: String) throws -> BatchShard {
            guard let count, count > 0 else {
                throw ValidationError("\(source) is set but the number of parts is not: give --shard-count or set \(countNames)")
            }
            guard index >= 0, index < count else {
                throw ValidationError("\(source) gives part \(index) of \(count): it must be 0–\(count - 1)")
            }
            return BatchShard(index: index, count: count, source: source)
        }
        if let id = number("SLURM_ARRAY_TASK_ID") {
            let low = number("SLURM_ARRAY_TASK_MIN") ?? 0
            var count = shardCount ?? number("SLURM_ARRAY_TASK_COUNT")
            if count == nil, let high = number("SLURM_ARRAY_TASK_MAX") { count = high - low + 1 }
            return try make(id - low, count, "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT")
        }
        if let id = number("JOB_COMPLETION_INDEX") {
            return try make(id, shardCount ?? number("JOB_COMPLETIONS"), "JOB_COMPLETION_INDEX", "JOB_COMPLETIONS")
        }
        if let id = number("AWS_BATCH_JOB_ARRAY_INDEX") {
            return try make(id, shardCount ?? number("AWS_BATCH_JOB_ARRAY_SIZE"), "AWS_BATCH_JOB_ARRAY_INDEX",
                            "AWS_BATCH_JOB_ARRAY_SIZE")
        }
        return nil
    }
}

/// A file a batch could not read or write: a manifest, the report, an output put in place.
///
/// Such an error ends ``BatchRenderer/start(_:outputDirectory:reportPath:shard:)`` (a manifest or
/// report that cannot be opened) or ``BatchRun/waitUntilFinished()`` (the final report that
/// cannot be written). What goes wrong with one input never ends a batch: it becomes that
/// input's ``BatchReportEntry``.
public struct BatchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file concerned.
    public var path: String
    /// What went wrong, e.g. "cannot open the report for writing".
    public var reason: String

    /// Creates an error about `path`.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// One line: the path, then the reason.
    public var description: String { "\(path): \(reason)" }
}

import PolyphonSFZCore

extension SFZInstrument {
    /// Reads the SFZ instrument at `path` from disk: its text and `#include`s, every region,
    /// and where its samples are (letter case corrected where the library was made on Windows).
    /// The samples are decoded when first played, or ahead with ``preloadSamples(forRegionsAt:)``.
    /// - Throws: ``SFZError`` when the file cannot be read or is not SFZ at all.
    public init(contentsOf path: String, limits: SFZReadingLimits = SFZReadingLimits()) throws(SFZError) {
        try self.init(path: path, fileSystem: SFZDiskFileSystem(), limits: limits)
        sampleProvider = SFZSampleStore(files: samples)
    }

    /// The store decoding this instrument's samples, when it was read from disk.
    public var sampleStore: SFZSampleStore? { sampleProvider as? SFZSampleStore }

    /// Decodes the samples of the given regions (all when nil) ahead of playing, in parallel.
    /// Returns how many files were decoded now.
    /// - Throws: the first ``SFZSampleError`` met.
    @discardableResult
    public func preloadSamples(forRegionsAt regionIndexes: [Int]? = nil) throws -> Int {
        guard let store = sampleStore else { return 0 }
        let indexes = regionIndexes.map { Set($0.compactMap { regions.indices.contains($0) ? regions[$0].sampleIndex : nil }).sorted() }
        return try store.preload(indexes)
    }
}

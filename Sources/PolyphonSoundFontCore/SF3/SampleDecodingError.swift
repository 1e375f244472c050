/// A compressed (SF3) sample that cannot be turned into PCM.
///
/// Thrown at note-on or preload time, not when the bank is opened: an SF3 bank loads without
/// libvorbisfile, and only playing a compressed sample needs it.
public struct SampleDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Hashable, Sendable {
        /// libvorbisfile could not be loaded; the text says how to install it.
        case libraryUnavailable(String)
        /// The bytes are not a decodable Ogg Vorbis stream (the text says why).
        case invalidStream(String)
        /// The sample header's byte range lies outside the `smpl` chunk.
        case rangeOutsideSampleData(start: Int, end: Int, available: Int)
        /// The sample index is not in the bank.
        case noSuchSample(count: Int)
        /// The bank was read without a decoder for compressed samples.
        case noDecoder
    }

    /// The index of the sample in ``SoundFont/samples``, when known.
    public var sampleIndex: Int?
    /// The sample's name, when known.
    public var sampleName: String?
    /// What went wrong.
    public var kind: Kind

    /// An error about the sample at `sampleIndex` named `sampleName`.
    public init(sampleIndex: Int? = nil, sampleName: String? = nil, kind: Kind) {
        self.sampleIndex = sampleIndex
        self.sampleName = sampleName
        self.kind = kind
    }

    /// One line: `sample N 'name': what`.
    public var description: String {
        var prefix = ""
        if let sampleIndex { prefix = "sample \(sampleIndex)" }
        if let sampleName { prefix += prefix.isEmpty ? "'\(sampleName)'" : " '\(sampleName)'" }
        if !prefix.isEmpty { prefix += ": " }
        switch kind {
        case .libraryUnavailable(let text): return prefix + text
        case .invalidStream(let text): return prefix + "cannot decode Ogg Vorbis data: \(text)"
        case .rangeOutsideSampleData(let start, let end, let available):
            return prefix + "bytes \(start)..<\(end) lie outside the \(available)-byte smpl chunk"
        case .noSuchSample(let count): return prefix + "no such sample (the bank has \(count))"
        case .noDecoder: return prefix + "compressed (SF3) sample, and the bank was read without a decoder"
        }
    }
}

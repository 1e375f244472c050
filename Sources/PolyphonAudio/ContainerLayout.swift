/// What a natively written container puts around the sample bytes: the header written when the
/// file is created (with provisional sizes) and the size fields patched when it is closed.
protocol ContainerLayout {
    /// The byte order of the sample data.
    var samplesAreBigEndian: Bool { get }
    /// Everything before the first sample byte.
    var header: [UInt8] { get }
    /// The most sample bytes the container's size fields can describe.
    var maximumDataByteCount: Int64 { get }
    /// Whether an odd-sized data chunk is followed by a pad byte (RIFF and IFF rules).
    var padsOddDataChunk: Bool { get }
    /// The header fields to overwrite once `dataByteCount` bytes of `frameCount` frames are
    /// written; `fileLength` includes any pad byte.
    func sizePatches(dataByteCount: Int64, frameCount: Int64, fileLength: Int64)
        -> [(offset: Int64, bytes: [UInt8])]
}

/// The parameters common to every layout.
struct StreamDescription {
    var sampleFormat: SampleFormat
    var channelCount: Int
    var sampleRate: Double

    var bytesPerFrame: Int { sampleFormat.bytesPerSample * channelCount }
}

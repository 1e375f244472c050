/// The AIFF header Polyphon writes: `FORM`/`AIFF`, a `COMM` chunk with the 80-bit extended
/// sample rate and an `SSND` chunk of big-endian two's-complement integers.
struct AIFFLayout: ContainerLayout {
    let stream: StreamDescription
    let header: [UInt8]

    /// Offsets of the fields patched at close.
    private static let formSizeOffset: Int64 = 4
    private static let frameCountOffset: Int64 = 22
    private static let soundSizeOffset: Int64 = 42

    init(stream: StreamDescription) {
        precondition(stream.sampleFormat.isInteger, "plain AIFF stores integers only")
        self.stream = stream
        var h = HeaderBytes()
        h.fourCC("FORM")
        h.uint32BE(0)
        h.fourCC("AIFF")
        h.fourCC("COMM")
        h.uint32BE(18)
        h.uint16BE(UInt16(stream.channelCount))
        h.uint32BE(0)
        h.uint16BE(UInt16(stream.sampleFormat.bitsPerSample))
        h.raw(ExtendedFloat80.bytes(stream.sampleRate))
        h.fourCC("SSND")
        h.uint32BE(8)
        h.uint32BE(0)  // offset to the first sample frame
        h.uint32BE(0)  // block size: no block alignment
        header = h.bytes
        assert(header.count == 54)
    }

    var samplesAreBigEndian: Bool { true }
    var padsOddDataChunk: Bool { true }

    /// IFF sizes are signed 32-bit; stay within them, pad byte included.
    var maximumDataByteCount: Int64 { Int64(Int32.max) - Int64(header.count) + 8 - 1 }

    func sizePatches(dataByteCount: Int64, frameCount: Int64, fileLength: Int64)
        -> [(offset: Int64, bytes: [UInt8])]
    {
        [
            (Self.formSizeOffset, HeaderBytes.uint32BE(UInt32(fileLength - 8))),
            (Self.frameCountOffset, HeaderBytes.uint32BE(UInt32(frameCount))),
            (Self.soundSizeOffset, HeaderBytes.uint32BE(UInt32(dataByteCount + 8))),
        ]
    }
}

/// The Core Audio Format header Polyphon writes: the `caff` file header, a `desc` chunk for
/// linear PCM and a `data` chunk. Header fields are big-endian; samples are little-endian
/// (16/24-bit integers as the SoundBankPlayer banks use, or 32-bit float).
///
/// The data chunk's size is written as −1 ("extends to the end of the file", which CAF allows
/// for the last chunk) when the file is created, and replaced by the real size at close, so an
/// interrupted render still leaves a readable file.
struct CAFLayout: ContainerLayout {
    let stream: StreamDescription
    let header: [UInt8]

    static let formatFlagIsFloat: UInt32 = 1
    static let formatFlagIsLittleEndian: UInt32 = 2
    private static let dataSizeOffset: Int64 = 56

    init(stream: StreamDescription) {
        self.stream = stream
        var h = HeaderBytes()
        h.fourCC("caff")
        h.uint16BE(1)  // file version
        h.uint16BE(0)  // file flags
        h.fourCC("desc")
        h.uint64BE(32)
        h.uint64BE(stream.sampleRate.bitPattern)
        h.fourCC("lpcm")
        let isFloat = stream.sampleFormat == .float32
        h.uint32BE(Self.formatFlagIsLittleEndian | (isFloat ? Self.formatFlagIsFloat : 0))
        h.uint32BE(UInt32(stream.bytesPerFrame))  // bytes per packet
        h.uint32BE(1)  // frames per packet
        h.uint32BE(UInt32(stream.channelCount))
        h.uint32BE(UInt32(stream.sampleFormat.bitsPerSample))
        h.fourCC("data")
        h.uint64BE(UInt64(bitPattern: -1))
        h.uint32BE(0)  // edit count
        header = h.bytes
        assert(header.count == 68)
    }

    var samplesAreBigEndian: Bool { false }
    var padsOddDataChunk: Bool { false }
    var maximumDataByteCount: Int64 { Int64.max / 2 }

    func sizePatches(dataByteCount: Int64, frameCount: Int64, fileLength: Int64)
        -> [(offset: Int64, bytes: [UInt8])]
    {
        // The chunk size counts the 4-byte edit count before the samples.
        [(Self.dataSizeOffset, HeaderBytes.uint64BE(UInt64(dataByteCount + 4)))]
    }
}

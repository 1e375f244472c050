/// The RIFF WAVE header Polyphon writes.
///
/// Plain `WAVE_FORMAT_PCM` (1) for 16-bit mono and stereo and `WAVE_FORMAT_IEEE_FLOAT` (3) for
/// float mono and stereo, which every reader accepts; `WAVE_FORMAT_EXTENSIBLE` (0xFFFE) where
/// Microsoft requires it: integers of more than 16 bits, or more than two channels. Float files
/// carry a `fact` chunk with the frame count, as RIFF requires for non-PCM formats.
struct WAVLayout: ContainerLayout {
    let stream: StreamDescription
    let header: [UInt8]
    private let factCountOffset: Int64?
    private let dataSizeOffset: Int64

    static let formatPCM: UInt16 = 1
    static let formatIEEEFloat: UInt16 = 3
    static let formatExtensible: UInt16 = 0xFFFE
    /// The tail shared by the KSDATAFORMAT_SUBTYPE GUIDs; the first two bytes are the format tag.
    static let subformatGUIDTail: [UInt8] = [
        0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71,
    ]

    init(stream: StreamDescription) {
        self.stream = stream
        let isFloat = stream.sampleFormat == .float32
        let extensible = stream.channelCount > 2 || (!isFloat && stream.sampleFormat.bitsPerSample > 16)
        let tag = isFloat ? Self.formatIEEEFloat : Self.formatPCM
        let bits = UInt16(stream.sampleFormat.bitsPerSample)
        let blockAlign = UInt16(stream.bytesPerFrame)
        let rate = UInt32(stream.sampleRate)

        var h = HeaderBytes()
        h.fourCC("RIFF")
        h.uint32LE(0)
        h.fourCC("WAVE")
        h.fourCC("fmt ")
        h.uint32LE(extensible ? 40 : (isFloat ? 18 : 16))
        h.uint16LE(extensible ? Self.formatExtensible : tag)
        h.uint16LE(UInt16(stream.channelCount))
        h.uint32LE(rate)
        h.uint32LE(rate * UInt32(blockAlign))
        h.uint16LE(blockAlign)
        h.uint16LE(bits)
        if extensible {
            h.uint16LE(22)
            h.uint16LE(bits)
            h.uint32LE(Self.channelMask(stream.channelCount))
            h.uint16LE(tag)
            h.raw(Self.subformatGUIDTail)
        } else if isFloat {
            h.uint16LE(0)
        }
        if isFloat {
            h.fourCC("fact")
            h.uint32LE(4)
            factCountOffset = Int64(h.count)
            h.uint32LE(0)
        } else {
            factCountOffset = nil
        }
        h.fourCC("data")
        dataSizeOffset = Int64(h.count)
        h.uint32LE(0)
        header = h.bytes
    }

    /// Front left/right for stereo, front centre for mono. Wider files are Polyphon's stems and
    /// buses, not speaker layouts, so they claim no speaker positions (mask 0).
    static func channelMask(_ channelCount: Int) -> UInt32 {
        switch channelCount {
        case 1: 0x4
        case 2: 0x3
        default: 0
        }
    }

    var samplesAreBigEndian: Bool { false }
    var padsOddDataChunk: Bool { true }

    /// The RIFF size (file length − 8) must fit in 32 bits, pad byte included.
    var maximumDataByteCount: Int64 { Int64(UInt32.max) - Int64(header.count) + 8 - 1 }

    func sizePatches(dataByteCount: Int64, frameCount: Int64, fileLength: Int64)
        -> [(offset: Int64, bytes: [UInt8])]
    {
        var patches: [(offset: Int64, bytes: [UInt8])] = [
            (4, HeaderBytes.uint32LE(UInt32(fileLength - 8))),
            (dataSizeOffset, HeaderBytes.uint32LE(UInt32(dataByteCount))),
        ]
        if let factCountOffset {
            patches.append((factCountOffset, HeaderBytes.uint32LE(UInt32(clamping: frameCount))))
        }
        return patches
    }
}

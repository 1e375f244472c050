#if !canImport(Darwin)
#if canImport(Glibc)
import PolyphonMIDI
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A MIDI input through the ALSA sequencer: a client with a writable port that other programs
/// (a keyboard's port, `aconnect`, `aplaymidi -p`) send to, optionally connected to a named
/// source port at start.
///
/// Sequencer events are turned back into MIDI bytes by libasound's own encoder
/// (`snd_midi_event_decode`) and then into `MIDIStreamMessage`s by a
/// `MIDIByteStreamParser`, so stdin and the sequencer share one decoding path.
public final class ALSASequencerInput: @unchecked Sendable {
    // @unchecked: the handles are used by the reading thread only after init.

    /// The device node the sequencer needs; containers and CI machines usually lack it.
    public static let deviceNode = "/dev/snd/seq"

    /// Whether this machine has a sequencer device at all.
    public static var isAvailable: Bool { access(deviceNode, F_OK) == 0 }

    /// The `client:port` address others connect to.
    public let address: String

    private let library: Libasound
    private let sequencer: OpaquePointer
    private let encoder: OpaquePointer
    private var thread: AudioThread?

    private typealias SeqOpen = @convention(c) (UnsafeMutablePointer<OpaquePointer?>, UnsafePointer<CChar>, Int32, Int32) -> Int32
    private typealias SeqClose = @convention(c) (OpaquePointer) -> Int32
    private typealias SeqSetName = @convention(c) (OpaquePointer, UnsafePointer<CChar>) -> Int32
    private typealias SeqCreatePort = @convention(c) (OpaquePointer, UnsafePointer<CChar>, UInt32, UInt32) -> Int32
    private typealias SeqClientID = @convention(c) (OpaquePointer) -> Int32
    private typealias SeqParseAddress = @convention(c) (OpaquePointer, UnsafeMutablePointer<UInt8>, UnsafePointer<CChar>) -> Int32
    private typealias SeqConnectFrom = @convention(c) (OpaquePointer, Int32, Int32, Int32) -> Int32
    private typealias SeqEventInput = @convention(c) (OpaquePointer, UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> Int32
    private typealias MIDIEventNew = @convention(c) (Int, UnsafeMutablePointer<OpaquePointer?>) -> Int32
    private typealias MIDIEventFree = @convention(c) (OpaquePointer) -> Void
    private typealias MIDIEventNoStatus = @convention(c) (OpaquePointer, Int32) -> Void
    private typealias MIDIEventDecode = @convention(c) (OpaquePointer, UnsafeMutablePointer<UInt8>, Int, UnsafeRawPointer) -> Int

    private let eventInput: SeqEventInput
    private let decode: MIDIEventDecode
    private let closeSequencer: SeqClose
    private let freeEncoder: MIDIEventFree

    static let openInput: Int32 = 2
    static let capabilityWrite: UInt32 = 1 << 1
    static let capabilitySubscribeWrite: UInt32 = 1 << 6
    static let capabilityRead: UInt32 = 1 << 0
    static let capabilitySubscribeRead: UInt32 = 1 << 5
    static let typeMIDIGeneric: UInt32 = 1 << 1
    static let typeApplication: UInt32 = 1 << 20

    /// Opens the sequencer as client `clientName` with one writable port `portName`, and, when
    /// `source` names a port (`"20:0"`, `"KeyStation:0"`, a client name), subscribes to it.
    public init(clientName: String = "polyphon", portName: String = "synth input",
                source: String? = nil) throws(AudioOutputError) {
        if !Self.isAvailable {
            throw .cannotOpen(backend: "alsa-seq", device: Self.deviceNode,
                              reason: "this machine has no ALSA sequencer device (no \(Self.deviceNode)); use --stdin")
        }
        let library = try Libasound.shared()
        self.library = library
        let open: SeqOpen = try library.symbol("snd_seq_open", as: SeqOpen.self)
        let setName: SeqSetName = try library.symbol("snd_seq_set_client_name", as: SeqSetName.self)
        let createPort: SeqCreatePort = try library.symbol("snd_seq_create_simple_port", as: SeqCreatePort.self)
        let clientID: SeqClientID = try library.symbol("snd_seq_client_id", as: SeqClientID.self)
        let parseAddress: SeqParseAddress = try library.symbol("snd_seq_parse_address", as: SeqParseAddress.self)
        let connectFrom: SeqConnectFrom = try library.symbol("snd_seq_connect_from", as: SeqConnectFrom.self)
        let newEncoder: MIDIEventNew = try library.symbol("snd_midi_event_new", as: MIDIEventNew.self)
        let noStatus: MIDIEventNoStatus = try library.symbol("snd_midi_event_no_status", as: MIDIEventNoStatus.self)
        eventInput = try library.symbol("snd_seq_event_input", as: SeqEventInput.self)
        decode = try library.symbol("snd_midi_event_decode", as: MIDIEventDecode.self)
        closeSequencer = try library.symbol("snd_seq_close", as: SeqClose.self)
        freeEncoder = try library.symbol("snd_midi_event_free", as: MIDIEventFree.self)

        var handle: OpaquePointer?
        let opened = open(&handle, "default", Self.openInput, 0)
        guard opened >= 0, let handle else {
            throw .cannotOpen(backend: "alsa-seq", device: "default", reason: library.message(opened))
        }
        _ = setName(handle, clientName)
        let port = createPort(handle, portName, Self.capabilityWrite | Self.capabilitySubscribeWrite,
                              Self.typeMIDIGeneric | Self.typeApplication)
        if port < 0 {
            _ = closeSequencer(handle)
            throw .cannotOpen(backend: "alsa-seq", device: "default", reason: "creating a port: \(library.message(port))")
        }
        if let source {
            var sourceAddress: (UInt8, UInt8) = (0, 0)
            let parsed = withUnsafeMutableBytes(of: &sourceAddress) { raw in
                parseAddress(handle, raw.baseAddress!.assumingMemoryBound(to: UInt8.self), source)
            }
            let connected = parsed < 0 ? parsed : connectFrom(handle, port, Int32(sourceAddress.0), Int32(sourceAddress.1))
            if connected < 0 {
                _ = closeSequencer(handle)
                throw .cannotOpen(backend: "alsa-seq", device: source, reason: library.message(connected))
            }
        }
        var encoderHandle: OpaquePointer?
        guard newEncoder(256, &encoderHandle) >= 0, let encoderHandle else {
            _ = closeSequencer(handle)
            throw .cannotOpen(backend: "alsa-seq", device: "default", reason: "cannot create a MIDI event decoder")
        }
        noStatus(encoderHandle, 1)
        sequencer = handle
        encoder = encoderHandle
        address = "\(clientID(handle)):\(port)"
    }

    deinit {
        // The reading thread blocks in snd_seq_event_input for the life of the process; the
        // handles are released only when no thread was started.
        if thread == nil {
            freeEncoder(encoder)
            _ = closeSequencer(sequencer)
        }
    }

    /// Starts a thread that reads events and hands each batch of messages to `handler`.
    /// The thread runs until the process ends.
    public func start(_ handler: @escaping @Sendable ([MIDIStreamMessage]) -> Void) {
        guard thread == nil else { return }
        thread = AudioThread(name: "polyphon-midi") { [self] in
            var parser = MIDIByteStreamParser()
            let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: 65_536)
            defer { buffer.deallocate() }
            while true {
                var event: UnsafeMutableRawPointer?
                let result = eventInput(sequencer, &event)
                if result == -EINTR || result == -EAGAIN { continue }
                if result == -ENOSPC { continue }  // the kernel queue overflowed: events were lost
                guard result >= 0, let event else { return }
                let count = decode(encoder, buffer, 65_536, event)
                guard count > 0 else { continue }
                let messages = parser.parse(UnsafeBufferPointer(start: buffer, count: count))
                if !messages.isEmpty { handler(messages) }
            }
        }
    }

    /// A sequencer port, as `--list` shows it.
    public struct Port: Sendable, Equatable {
        /// `client:port`.
        public var address: String
        /// The client's name (the program or the device).
        public var clientName: String
        /// The port's name.
        public var portName: String
        /// Whether it sends MIDI (a keyboard) — something to connect from.
        public var isSource: Bool
    }

    /// The ports other clients offer.
    public static func ports() throws(AudioOutputError) -> [Port] {
        if !isAvailable {
            throw .cannotOpen(backend: "alsa-seq", device: deviceNode,
                              reason: "this machine has no ALSA sequencer device (no \(deviceNode))")
        }
        let library = try Libasound.shared()
        typealias Malloc = @convention(c) (UnsafeMutablePointer<OpaquePointer?>) -> Int32
        typealias Free = @convention(c) (OpaquePointer) -> Void
        typealias SetInt = @convention(c) (OpaquePointer, Int32) -> Void
        typealias GetInt = @convention(c) (OpaquePointer) -> Int32
        typealias GetUInt = @convention(c) (OpaquePointer) -> UInt32
        typealias GetName = @convention(c) (OpaquePointer) -> UnsafePointer<CChar>?
        typealias QueryNext = @convention(c) (OpaquePointer, OpaquePointer) -> Int32
        let open: SeqOpen = try library.symbol("snd_seq_open", as: SeqOpen.self)
        let close: SeqClose = try library.symbol("snd_seq_close", as: SeqClose.self)
        let clientMalloc: Malloc = try library.symbol("snd_seq_client_info_malloc", as: Malloc.self)
        let clientFree: Free = try library.symbol("snd_seq_client_info_free", as: Free.self)
        let clientSet: SetInt = try library.symbol("snd_seq_client_info_set_client", as: SetInt.self)
        let clientGet: GetInt = try library.symbol("snd_seq_client_info_get_client", as: GetInt.self)
        let clientName: GetName = try library.symbol("snd_seq_client_info_get_name", as: GetName.self)
        let nextClient: QueryNext = try library.symbol("snd_seq_query_next_client", as: QueryNext.self)
        let portMalloc: Malloc = try library.symbol("snd_seq_port_info_malloc", as: Malloc.self)
        let portFree: Free = try library.symbol("snd_seq_port_info_free", as: Free.self)
        let portSetClient: SetInt = try library.symbol("snd_seq_port_info_set_client", as: SetInt.self)
        let portSetPort: SetInt = try library.symbol("snd_seq_port_info_set_port", as: SetInt.self)
        let portGet: GetInt = try library.symbol("snd_seq_port_info_get_port", as: GetInt.self)
        let portName: GetName = try library.symbol("snd_seq_port_info_get_name", as: GetName.self)
        let portCapability: GetUInt = try library.symbol("snd_seq_port_info_get_capability", as: GetUInt.self)
        let nextPort: QueryNext = try library.symbol("snd_seq_query_next_port", as: QueryNext.self)

        var handle: OpaquePointer?
        let opened = open(&handle, "default", 3, 0)
        guard opened >= 0, let handle else {
            throw .cannotOpen(backend: "alsa-seq", device: "default", reason: library.message(opened))
        }
        defer { _ = close(handle) }
        var clientInfo: OpaquePointer?
        var portInfo: OpaquePointer?
        guard clientMalloc(&clientInfo) >= 0, let clientInfo, portMalloc(&portInfo) >= 0, let portInfo else { return [] }
        defer { clientFree(clientInfo); portFree(portInfo) }
        var ports: [Port] = []
        clientSet(clientInfo, -1)
        while nextClient(handle, clientInfo) >= 0 {
            let client = clientGet(clientInfo)
            let name = clientName(clientInfo).map { String(cString: $0) } ?? ""
            portSetClient(portInfo, client)
            portSetPort(portInfo, -1)
            while nextPort(handle, portInfo) >= 0 {
                let capability = portCapability(portInfo)
                let readable = capability & (capabilityRead | capabilitySubscribeRead) == (capabilityRead | capabilitySubscribeRead)
                let writable = capability & (capabilityWrite | capabilitySubscribeWrite) == (capabilityWrite | capabilitySubscribeWrite)
                guard readable || writable else { continue }
                ports.append(Port(address: "\(client):\(portGet(portInfo))", clientName: name,
                                  portName: portName(portInfo).map { String(cString: $0) } ?? "",
                                  isSource: readable))
            }
        }
        return ports
    }
}
#endif

import Foundation
import Hummingbird
import PolyphonAudio
import PolyphonMIDI
import PolyphonPlayback
import PolyphonSoundFont
import PolyphonWebKit

/// The HTTP side of `polyphon jam`:
///
/// - `GET /` and the page's files, from a fixed table (``StaticFiles``): no request names a path.
/// - `GET /api/banks`: the banks, by id, and which one the page starts with.
/// - `GET /api/banks/{id}/presets`: a bank's presets (bank, program, name).
/// - `GET /api/banks/{id}/presets/{bank}/{program}?v={version}`: that preset as an SF2 subset;
///   cached by the browser for good (the version changes with the bank's file).
/// - `GET /api/songs`: the MIDI files of `--midi DIR` (id, file name, size); `GET /api/songs/{id}`
///   one of them.
/// - `POST /api/export/midi`: a take (JSON, ``Take``) → a Standard MIDI File.
/// - `POST /api/export/audio?format=wav|flac&bits=16|24|32f`: a take rendered by the native
///   engine, the same samples the page played.
///
/// Every request is bounded (``JamLimits``); a bad one gets a 4xx with a one-line reason.
struct JamServer: Sendable {
    let catalog: BankCatalog
    let files: StaticFiles
    let limits: JamLimits
    let gate: RenderGate
    let songs: SongFolder

    init(catalog: BankCatalog, files: StaticFiles, limits: JamLimits = JamLimits(), songs: SongFolder = SongFolder()) {
        self.catalog = catalog
        self.files = files
        self.songs = songs
        self.limits = limits
        self.gate = RenderGate(capacity: limits.concurrentRenders)
    }

    func router() -> Router<BasicRequestContext> {
        let router = Router()
        for (route, file) in files.table {
            router.get(RouterPath(route)) { _, _ -> Response in
                guard let data = FileManager.default.contents(atPath: file.path) else {
                    throw HTTPError(.notFound, message: "\(route) is not built (\(file.path))")
                }
                return Self.response(data, type: file.type, headers: [.cacheControl: "no-cache"])
            }
        }
        router.get("/api/banks") { _, _ -> Response in
            let entries = catalog.entries
            struct Listing: Encodable { var banks: [BankCatalog.Entry]; var defaultBank: String }
            return try Self.json(Listing(banks: entries.map(\.listed),
                                         defaultBank: entries.first?.id ?? "builtin"))
        }
        router.get("/api/banks/:id/presets") { _, context -> Response in
            let id = try context.parameters.require("id")
            do {
                return try Self.json(try await catalog.presets(id))
            } catch let error as BankCatalog.Failure {
                throw HTTPError(error.notFound ? .notFound : .internalServerError, message: error.description)
            }
        }
        router.get("/api/banks/:id/presets/:bank/:program") { request, context -> Response in
            let id = try context.parameters.require("id")
            guard let bank = context.parameters.get("bank", as: Int.self), [0, 128].contains(bank) || (0..<16_384).contains(bank),
                  let program = context.parameters.get("program", as: Int.self), (0..<128).contains(program) else {
                throw HTTPError(.badRequest, message: "a preset is /api/banks/ID/presets/BANK/PROGRAM with program 0–127")
            }
            do {
                let entry = try await catalog.entry(id)
                let data = try await catalog.subset(id, bank: bank, program: program)
                let versioned = request.uri.queryParameters.get("v") == entry.version
                return Self.response(data, type: "application/octet-stream", headers: [
                    .cacheControl: versioned ? "public, max-age=31536000, immutable" : "no-cache",
                    .eTag: "\"\(entry.version)-\(bank)-\(program)\"",
                ])
            } catch let error as BankCatalog.Failure {
                throw HTTPError(error.notFound ? .notFound : .internalServerError, message: error.description)
            }
        }
        router.get("/api/songs") { _, _ -> Response in try Self.json(songs.listing) }
        router.get("/api/songs/:id") { _, context -> Response in
            let id = try context.parameters.require("id")
            guard let data = songs.bytes(id) else { throw HTTPError(.notFound, message: "no song \(id)") }
            return Self.response(data, type: "audio/midi", headers: [.cacheControl: "no-cache"])
        }
        router.post("/api/export/midi") { request, context -> Response in
            let (take, events) = try await readTake(request)
            let bytes = TakeExport.midiFile(take, events: events).serialized()
            return Self.response(Data(bytes), type: "audio/midi",
                                 headers: [.contentDisposition: "attachment; filename=\"take.mid\""])
        }
        router.post("/api/export/audio") { request, context -> Response in
            let query = request.uri.queryParameters
            let formatName = query.get("format") ?? "wav"
            guard let format = AudioFileFormat(fileExtension: formatName), [.wav, .flac].contains(format) else {
                throw HTTPError(.badRequest, message: "format must be wav or flac")
            }
            let sampleFormat: SampleFormat
            switch query.get("bits") ?? "16" {
            case "16": sampleFormat = .int16
            case "24": sampleFormat = .int24
            case "32f" where format == .wav: sampleFormat = .float32
            default: throw HTTPError(.badRequest, message: "bits must be 16 or 24 (or 32f for wav)")
            }
            let (take, events) = try await readTake(request)
            let bankID = query.get("bank") ?? catalog.entries.first?.id ?? "builtin"
            let bank: SoundFont
            do { bank = try await catalog.bank(bankID) } catch let error as BankCatalog.Failure {
                throw HTTPError(error.notFound ? .notFound : .internalServerError, message: error.description)
            }
            guard await gate.enter() else {
                throw HTTPError(.serviceUnavailable, message: "\(limits.concurrentRenders) exports are rendering; try again shortly")
            }
            let limits = self.limits
            let data: Data
            do {
                data = try await Self.offThread {
                    try TakeExport.audio(take, events: events, bank: bank, format: format, sampleFormat: sampleFormat, limits: limits)
                }
                await gate.leave()
            } catch let error as RenderCancelledError {
                await gate.leave()
                throw HTTPError(.serviceUnavailable, message: "the render took longer than \(Int(limits.maxRenderSeconds)) s: \(error)")
            } catch {
                await gate.leave()
                throw HTTPError(.internalServerError, message: "\(error)".split(separator: "\n").first.map(String.init) ?? "render failed")
            }
            return Self.response(data, type: format == .wav ? "audio/wav" : "audio/flac",
                                 headers: [.contentDisposition: "attachment; filename=\"take.\(format.fileExtension)\""])
        }
        return router
    }

    /// The request's body as a checked take; 413 when it is too large, 400 when it is no take.
    func readTake(_ request: Request) async throws -> (Take, [Take.Event]) {
        var request = request
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: limits.maxRequestBytes)
        } catch {
            throw HTTPError(.contentTooLarge, message: "a take is at most \(limits.maxRequestBytes) bytes")
        }
        do {
            return try Take.decode(Data(buffer: body), limits: limits)
        } catch {
            throw HTTPError(.badRequest, message: error.description)
        }
    }

    static func response(_ data: Data, type: String, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = type
        return Response(status: .ok, headers: fields, body: .init(byteBuffer: ByteBuffer(data: data)))
    }

    static func json(_ value: some Encodable) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return response(try encoder.encode(value), type: "application/json")
    }

    /// Runs CPU-bound work on a dispatch thread, leaving the server's threads free.
    static func offThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async { continuation.resume(with: Result { try work() }) }
        }
    }
}

/// Admits at most `capacity` audio exports at once.
actor RenderGate {
    let capacity: Int
    private var running = 0
    init(capacity: Int) { self.capacity = capacity }
    func enter() -> Bool {
        guard running < capacity else { return false }
        running += 1
        return true
    }
    func leave() { running -= 1 }
}

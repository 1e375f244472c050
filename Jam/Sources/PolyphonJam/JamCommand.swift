import ArgumentParser
import Foundation
import Hummingbird
import PolyphonWebKit

/// `polyphon-jam` (what `polyphon jam` starts): serves the jam page — an instrument played in
/// the browser by Polyphon's engine compiled to WebAssembly — with the banks it plays.
@main
struct JamCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "polyphon jam",
        abstract: "Play Polyphon in a browser: keyboard, 128 General MIDI instruments, record, layer, export.",
        discussion: """
            Serves the jam page and prints its URL. The page runs Polyphon's WebAssembly module (built \
            from this checkout's sources on first use) in an AudioWorklet and fetches one preset at a \
            time from the banks listed here: those given with --soundfont, the ones discovered on this \
            system, and the built-in bank; --midi DIR lists that folder's MIDI files to play. Binds to 127.0.0.1 unless --host says otherwise.
            """)

    @Option(name: [.customLong("soundfont"), .customShort("s")], help: "A bank to offer (SF2/SF3/DLS/plist/SFZ); repeat for more. X.sfz@B:P places an SFZ instrument on bank B, program P; with other --soundfont banks it is also offered stacked over them, as render plays them.")
    var soundfonts: [String] = []

    @Option(name: .customLong("midi"),
            help: ArgumentHelp("A folder of MIDI files (.mid, .midi, .kar, .rmi) the page lists to play.", valueName: "dir"))
    var midiFolder: String?

    @Option(help: "Address to listen on. Anything but loopback lets anyone on that network play and export.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on (0: any free port).")
    var port = 8080

    @Flag(help: "Open the page in the default browser.")
    var open = false

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0–65535") }
    }

    func run() async throws {
        let kit = WebAssemblyKit.thisCheckout
        do {
            try kit.prepareModule { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
        } catch {
            throw JamFailure(error.description)
        }
        let entries: [BankCatalog.Entry]
        do { entries = try BankCatalog.discover(paths: soundfonts) } catch { throw JamFailure("\(error)") }
        var songs = SongFolder()
        if let midiFolder {
            do { songs = try SongFolder.scan(midiFolder) } catch { throw JamFailure(error.description) }
        }
        if !Self.isLoopback(host) {
            FileHandle.standardError.write(Data("polyphon jam: listening on \(host): anyone on that network can play and export\n".utf8))
        }
        let server = JamServer(catalog: BankCatalog(entries: entries),
                               files: .standard(kit: kit, page: StaticFiles.pageFolder), songs: songs)
        let host = self.host, open = self.open
        let app = Application(
            router: server.router(),
            configuration: .init(address: .hostname(host, port: port), serverName: "polyphon-jam"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                let shown = Self.isLoopback(host) || host == "0.0.0.0" || host == "::" ? "127.0.0.1" : host
                let url = "http://\(shown.contains(":") ? "[\(shown)]" : shown):\(port)/"
                // Written straight to the descriptor: a script waiting for the URL reads it at once.
                FileHandle.standardOutput.write(Data("polyphon jam: \(url)  (banks: \(entries.map(\.id).joined(separator: ", ")); Ctrl-C stops)\n".utf8))
                if open { Self.openInBrowser(url) }
            })
        try await app.runService()
    }

    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    static func openInBrowser(_ url: String) {
        let process = Process()
        #if os(macOS)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/open")
        process.arguments = [url]
        #else
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .map { "\($0)/xdg-open" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let path else {
            FileHandle.standardError.write(Data("polyphon jam: no xdg-open to open a browser with; open the URL above\n".utf8))
            return
        }
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = [url]
        #endif
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        if (try? process.run()) == nil {
            FileHandle.standardError.write(Data("polyphon jam: cannot open a browser (xdg-open); open the URL above\n".utf8))
        }
    }
}

/// A one-line reason `polyphon jam` cannot start (exit code 1).
struct JamFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

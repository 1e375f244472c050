import Foundation
import PolyphonWebKit

/// The files the jam server serves, each under a fixed route: the page from this program's
/// resources and the WebAssembly kit from the checkout it was built from. Requests only ever
/// pick a route from this table, so none can reach another file.
struct StaticFiles: Sendable {
    struct File: Sendable {
        var path: String
        var type: String
    }

    /// Route → file.
    var table: [(route: String, file: File)]

    /// The page (`index.html`, `jam.js`, `jam.css`) and the kit (`polyphon.wasm`, `polyphon.js`,
    /// `polyphon-worklet.js` and the MIDI file player it imports, `polyphon-midi-player.js`).
    static func standard(kit: WebAssemblyKit, page: String) -> StaticFiles {
        StaticFiles(table: [
            ("/", File(path: page + "/index.html", type: "text/html; charset=utf-8")),
            ("/jam.js", File(path: page + "/jam.js", type: "text/javascript; charset=utf-8")),
            ("/jam.css", File(path: page + "/jam.css", type: "text/css; charset=utf-8")),
            ("/gm.js", File(path: page + "/gm.js", type: "text/javascript; charset=utf-8")),
            ("/polyphon.wasm", File(path: kit.modulePath, type: "application/wasm")),
            ("/polyphon.js", File(path: kit.wrapperPath, type: "text/javascript; charset=utf-8")),
            ("/polyphon-worklet.js", File(path: kit.workletPath, type: "text/javascript; charset=utf-8")),
            ("/polyphon-midi-player.js", File(path: kit.midiPlayerPath, type: "text/javascript; charset=utf-8")),
        ])
    }

    /// The page's folder among this program's resources.
    static var pageFolder: String {
        Bundle.module.url(forResource: "Page", withExtension: nil)?.path ?? "Page"
    }
}

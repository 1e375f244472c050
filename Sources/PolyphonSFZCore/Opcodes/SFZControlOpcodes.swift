/// The opcodes of `<control>`: default path, key offsets, controller defaults and labels,
/// hints (sfizz's `handleControlOpcodes`).
enum SFZControlOpcodes {
    enum Outcome {
        case applied
        case invalid(String)
        case unknown
    }

    /// Whether `name` is a `<control>` opcode.
    static func knows(_ name: SFZOpcodeName) -> Bool {
        ["set_cc&", "set_hdcc&", "label_cc&", "label_key&", "default_path", "note_offset", "octave_offset",
         "image", "image_controls"].contains(name.pattern) || name.canonical.hasPrefix("hint_")
    }

    static func apply(_ name: SFZOpcodeName, _ value: String, to control: inout SFZControl,
                      limits: SFZReadingLimits) -> Outcome {
        func controller() -> Int? {
            guard let n = name.numbers.last, n <= limits.maximumControllerNumber else { return nil }
            return n
        }
        switch name.pattern {
        case "set_cc&", "set_hdcc&":
            guard let cc = controller() else { return .unknown }
            let hd = name.pattern == "set_hdcc&"
            switch (hd ? SFZSpecs.normalized : SFZSpecs.midiValue).read(value) {
            case .success(let v): control.controllerDefaults[cc] = SFZValueSpec.float(hd ? v * 127 : v)
            case .failure(let problem): return .invalid(problem.message)
            }
        case "label_cc&":
            guard let cc = controller() else { return .unknown }
            control.controllerLabels[cc] = value
        case "label_key&":
            guard let key = name.numbers.last, key <= 127 else { return .unknown }
            control.keyLabels[key] = value
        case "default_path":
            control.defaultPath = value.replacingBackslashes()
        case "note_offset":
            switch SFZValueSpec.permissive(-127, 127).integer.read(value) {
            case .success(let v): control.noteOffset = Int(min(max(v, -1000), 1000))
            case .failure(let problem): return .invalid(problem.message)
            }
        case "octave_offset":
            switch SFZValueSpec.permissive(-10, 10).integer.read(value) {
            case .success(let v): control.octaveOffset = Int(min(max(v, -100), 100))
            case .failure(let problem): return .invalid(problem.message)
            }
        case "image", "image_controls":
            break  // a picture for a player's user interface
        default:
            guard name.canonical.hasPrefix("hint_") else { return .unknown }
            control.hints[name.canonical] = value
        }
        return .applied
    }
}

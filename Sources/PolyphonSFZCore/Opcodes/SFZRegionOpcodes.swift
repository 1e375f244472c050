/// Every opcode a region (or the `<global>`, `<master>` and `<group>` above it) accepts, by
/// pattern (``SFZOpcodeName/pattern``), with the spec its value is read by — sfizz's
/// `Region::parseOpcode`, one family per file.
enum SFZRegionOpcodes {
    /// The effect of `name=value` on a region.
    static func effect(of name: SFZOpcodeName, value: String, limits: SFZReadingLimits) -> SFZOpcodeEffect {
        guard let handler = handlers[name.pattern] else { return .unknown }
        return handler(SFZOpcodeArguments(numbers: name.numbers, value: value, limits: limits))
    }

    /// Whether `pattern` is a region opcode (for telling `<control>` opcodes written in the
    /// wrong block from unknown ones).
    static func knows(_ pattern: String) -> Bool { handlers[pattern] != nil }

    static let handlers: [String: SFZOpcodeHandler] = {
        var table = SFZOpcodeTable()
        table.addSelection()
        table.addTriggers()
        table.addPitch()
        table.addAmplitude()
        table.addCrossfades()
        table.addPlayback()
        table.addPolyphony()
        table.addLegacyEnvelopes()
        table.addFilters()
        table.addEqualizers()
        table.addLegacyLFOs()
        table.addLFOs()
        table.addFlexEnvelopes()
        return table.handlers
    }()
}

/// Building the handler table: one entry per pattern, made by helpers that read a value of a
/// kind (number, key, choice, flag, text) and hand it to a setter.
struct SFZOpcodeTable {
    private(set) var handlers: [String: SFZOpcodeHandler] = [:]

    mutating func add(_ pattern: String, _ handler: @escaping SFZOpcodeHandler) {
        precondition(handlers[pattern] == nil, "opcode pattern \(pattern) registered twice")
        handlers[pattern] = handler
    }

    /// A real number under `spec`.
    mutating func real(_ pattern: String, _ spec: SFZValueSpec,
                       _ set: @escaping @Sendable (inout SFZRegion, SFZOpcodeArguments, Float) -> Void) {
        add(pattern) { arguments in
            switch spec.read(arguments.value) {
            case .success(let value):
                let v = SFZValueSpec.float(value)
                return .apply { set(&$0, arguments, v) }
            case .failure(let problem):
                return .invalid(problem.message)
            }
        }
    }

    /// An integer under `spec`.
    mutating func integer(_ pattern: String, _ spec: SFZValueSpec,
                          _ set: @escaping @Sendable (inout SFZRegion, SFZOpcodeArguments, Int) -> Void) {
        let spec = spec.integer
        add(pattern) { arguments in
            switch spec.read(arguments.value) {
            case .success(let value):
                // Beyond ±2^40 no integer opcode means anything; bounded, sums of them cannot overflow.
                let v = Int(min(max(value, -0x100_0000_0000), 0x100_0000_0000))
                return .apply { set(&$0, arguments, v) }
            case .failure(let problem):
                return .invalid(problem.message)
            }
        }
    }

    /// A MIDI key, number or note name.
    mutating func key(_ pattern: String, _ set: @escaping @Sendable (inout SFZRegion, SFZOpcodeArguments, UInt8) -> Void) {
        integer(pattern, .key) { region, arguments, value in set(&region, arguments, UInt8(value)) }
    }

    /// One of a set of words.
    mutating func choice<Value: Sendable>(_ pattern: String, _ expected: String, _ parse: @escaping @Sendable (String) -> Value?,
                                          _ set: @escaping @Sendable (inout SFZRegion, SFZOpcodeArguments, Value) -> Void) {
        add(pattern) { arguments in
            guard let value = parse(arguments.value) else {
                return .invalid("'\(arguments.value)' is not one of \(expected)")
            }
            return .apply { set(&$0, arguments, value) }
        }
    }

    /// `on`/`off` or a number.
    mutating func flag(_ pattern: String, _ set: @escaping @Sendable (inout SFZRegion, SFZOpcodeArguments, Bool) -> Void) {
        choice(pattern, "on, off, 0, 1", { SFZValueReader.boolean($0) }, set)
    }

    /// Free text.
    mutating func text(_ pattern: String, _ set: @escaping @Sendable (inout SFZRegion, SFZOpcodeArguments, String) -> Void) {
        add(pattern) { arguments in
            let value = arguments.value
            return .apply { set(&$0, arguments, value) }
        }
    }

    /// A handler that first checks the name's numbers (index, controller); an out-of-range
    /// number makes the opcode unknown, as in sfizz.
    mutating func checked(_ pattern: String, indexes: [Int] = [], controller: Bool = false,
                          _ register: (inout SFZOpcodeTable, String) -> Void) {
        var inner = SFZOpcodeTable()
        register(&inner, pattern)
        guard let handler = inner.handlers[pattern] else { return }
        add(pattern) { arguments in
            for position in indexes where arguments.index(position) == nil { return .unknown }
            if controller && arguments.controller == nil { return .unknown }
            return handler(arguments)
        }
    }

    typealias ControllerRangesAccess = @Sendable (inout SFZRegion, (inout [SFZControllerRange]) -> Void) -> Void

    /// A pair like `loccN`/`hiccN`: the ends of a range on controller N, read under `spec` and
    /// multiplied by `scale` (127 for the `hdcc` forms, written 0…1); a new condition starts
    /// from `defaults`.
    mutating func controllerBounds(lower: String, upper: String, _ spec: SFZValueSpec, scale: Float = 1,
                                   defaults: SFZRange<Float>, _ access: @escaping ControllerRangesAccess) {
        checked(lower, controller: true) { t, p in
            t.real(p, spec) { r, a, v in access(&r) { $0.update(a.numbers.last!, defaults: defaults) { $0.lower = v * scale } } }
        }
        checked(upper, controller: true) { t, p in
            t.real(p, spec) { r, a, v in access(&r) { $0.update(a.numbers.last!, defaults: defaults) { $0.upper = v * scale } } }
        }
    }

    /// Access to a value a family modulates, given the opcode's arguments (which filter, which
    /// LFO …).
    typealias ValueAccess = @Sendable (inout SFZRegion, SFZOpcodeArguments, (inout SFZModulatedValue) -> Void) -> Void

    /// `base` setting the value (under `spec`) and `base_onccN`, `base_curveccN`, `base_stepccN`,
    /// `base_smoothccN` setting its controllers (depth under `depthSpec`), the way sfizz's
    /// `processGenericCc` does. `indexes` are the positions of index numbers in `base`.
    mutating func modulated(_ base: String, value spec: SFZValueSpec?, depth depthSpec: SFZValueSpec,
                            indexes: [Int] = [], _ access: @escaping ValueAccess) {
        if let spec {
            checked(base, indexes: indexes) { table, pattern in
                table.real(pattern, spec) { region, arguments, value in access(&region, arguments) { $0.value = value } }
            }
        }
        controllers(base, depth: depthSpec, indexes: indexes, access)
    }

    /// Only the controller forms of ``modulated(_:value:depth:indexes:_:)``.
    mutating func controllers(_ base: String, depth depthSpec: SFZValueSpec, indexes: [Int] = [], _ access: @escaping ValueAccess) {
        checked(base + "_oncc&", indexes: indexes, controller: true) { table, pattern in
            table.real(pattern, depthSpec) { region, arguments, value in
                access(&region, arguments) { $0.updateController(arguments.numbers.last!) { $0.depth = value } }
            }
        }
        checked(base + "_curvecc&", indexes: indexes, controller: true) { table, pattern in
            table.integer(pattern, .strict(0, 255)) { region, arguments, value in
                access(&region, arguments) { $0.updateController(arguments.numbers.last!) { $0.curve = value } }
            }
        }
        checked(base + "_stepcc&", indexes: indexes, controller: true) { table, pattern in
            table.real(pattern, SFZValueSpec(lower: 0, upper: 127, belowLower: .reject, aboveUpper: .accept)) { region, arguments, value in
                access(&region, arguments) { $0.updateController(arguments.numbers.last!) { $0.step = value } }
            }
        }
        checked(base + "_smoothcc&", indexes: indexes, controller: true) { table, pattern in
            table.integer(pattern, SFZValueSpec(lower: 0, upper: 100, belowLower: .reject, aboveUpper: .accept)) { region, arguments, value in
                access(&region, arguments) { $0.updateController(arguments.numbers.last!) { $0.smoothing = value } }
            }
        }
    }
}

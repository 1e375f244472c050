import PolyphonSoundFont

extension SoundFont {
    /// The bank with only the zones a browser can play right: those an SFZ region starts at a
    /// plain note-on. The page receives presets as SF2, which carries no play-time rules
    /// (``Zone/playCondition``), so a release sample, a later round-robin step, a random layer
    /// above the first draw or a region under another keyswitch would sound at every note-on
    /// with the others; they are left out, and each note plays the instrument's first choice
    /// (round robin's first step, the default keyswitch, the lowest random layer). SF2 zones
    /// have no rules and are all kept.
    func keepingZonesStartedAtNoteOn() -> SoundFont {
        guard instruments.contains(where: { $0.zones.contains { $0.playCondition != nil } }) else { return self }
        var bank = self
        for i in bank.instruments.indices {
            bank.instruments[i].zones.removeAll { zone in
                guard let rule = zone.playCondition else { return false }
                let keyswitchOK = rule.lastKeyswitch.map { range in rule.defaultKeyswitch.map(range.contains) ?? false } ?? true
                return !(rule.trigger == .attack || rule.trigger == .first) || rule.sequencePosition != 1
                    || !rule.admitsRandom(0) || !keyswitchOK || rule.keyDown != nil || rule.previousKey != nil
            }
        }
        return bank
    }
}

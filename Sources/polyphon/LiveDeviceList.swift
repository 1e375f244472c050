import Foundation
import PolyphonAudio
import PolyphonLive

/// `polyphon synth --list`: the MIDI ports and audio devices this machine offers.
enum LiveDeviceList {
    static var sequencerAvailable: Bool {
        #if canImport(Darwin)
        false
        #else
        ALSASequencerInput.isAvailable
        #endif
    }

    static func print() {
        Swift.print("MIDI ports (ALSA sequencer):")
        #if canImport(Darwin)
        Swift.print("  not available on this platform; use --stdin")
        #else
        if !ALSASequencerInput.isAvailable {
            Swift.print("  none: this machine has no ALSA sequencer device (no \(ALSASequencerInput.deviceNode))")
        } else {
            do {
                let ports = try ALSASequencerInput.ports()
                if ports.isEmpty { Swift.print("  none") }
                for port in ports {
                    Swift.print("  \(port.address.padding(toLength: 7, withPad: " ", startingAt: 0)) \(port.clientName): \(port.portName)\(port.isSource ? "" : " (input only)")")
                }
            } catch {
                Swift.print("  \(error.description)")
            }
        }
        #endif
        Swift.print("Audio outputs:")
        #if !canImport(Darwin)
        do {
            let probe = try PulseAudioOutput(settings: AudioOutputSettings(clientName: "polyphon --list"))
            probe.close()
            Swift.print("  pulse   default sink (server reachable)")
        } catch {
            Swift.print("  pulse   unavailable: \(error.description)")
        }
        do {
            let devices = try ALSAOutput.availableDevices()
            for device in devices {
                Swift.print("  alsa    \(device.name)\(device.description.isEmpty ? "" : " — \(device.description)")")
            }
        } catch {
            Swift.print("  alsa    unavailable: \(error.description)")
        }
        #else
        Swift.print("  coreaudio default output")
        #endif
    }
}

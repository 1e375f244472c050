import Foundation
import PolyphonAudio
import PolyphonPlayback

/// How a ``BatchRenderer`` renders each input and what it writes beside the mix.
public struct BatchOptions: Sendable {
    /// How every input is rendered: sample rate, synthesizer settings, tail, duration limit.
    public var render = RenderOptions()
    /// The files' format.
    public var format: AudioFileFormat = .wav
    /// The sample format of formats that have one (lossy formats ignore it).
    public var sampleFormat: SampleFormat = .int16
    /// Also one file per MIDI channel, track or program (`NAME-LABEL.EXT`); they add up to the mix.
    public var stems: StemMode?
    /// Also every note's onset and offset, pitch, velocity, channel and program
    /// (`NAME.labels.csv` or `NAME.labels.json`).
    public var labels: NoteLabelFormat?
    /// Also a picture beside each mix (`NAME.png`, PolyphonPlayback's `RenderPicture`): title,
    /// instrument legend, piano roll, waveform, short-term loudness, time axis — drawn from the
    /// render.
    public var drawsPictures = false
    /// The pictures' format.
    public var pictureFormat: PictureFormat = .png
    /// The bank's name as pictures and the report page give it (its file name, say).
    public var bankName: String?
    /// Also the report as a web page (``BatchReportPage``), `index.html` in the output
    /// directory (`index-shardI.html` for a shard), rewritten as inputs finish.
    public var writesReportPage = false
    /// Wall seconds an input may take, parsing and writing included, before it is abandoned
    /// with status ``BatchStatus/timeout``; `nil` for no limit.
    public var timeout: Double?
    /// Inputs rendered at once, each on a thread of its own, all sharing the bank; by default
    /// ``defaultWorkerCount(environment:)``.
    public var workerCount = BatchOptions.defaultWorkerCount(environment: ProcessInfo.processInfo.environment)
    /// Threads each input's synthesizer spreads its voices over (`RenderOptions.threads`,
    /// which this replaces); `nil` for ``threadCount(forInputs:)``'s division of the cores.
    public var threadsPerInput: Int?

    /// The defaults: 44.1 kHz 16-bit WAV, FluidSynth's synthesis defaults, a mix per input, no
    /// time limit, one worker per core.
    public init() {}

    /// The threads each input renders on in a run of `inputCount` inputs: ``threadsPerInput`` if
    /// set, else the workers' share of the cores when there are fewer inputs than workers —
    /// `workerCount / inputCount`, at least 1. Files side by side scale better than threads
    /// within a file (nothing is shared and nothing waits), so a corpus renders one file per
    /// core; the threads take up only the cores a short list would leave idle: three long songs
    /// on 16 cores render on five threads each.
    public func threadCount(forInputs inputCount: Int) -> Int {
        if let threadsPerInput { return max(1, threadsPerInput) }
        return max(1, workerCount / max(1, min(workerCount, inputCount)))
    }

    /// Gives each input `threads` threads and renders as many inputs at once as `cores` then
    /// holds (at least 1): how `batch --threads N` divides the cores without `--jobs`.
    public mutating func divide(cores: Int, threadsPerInput threads: Int) {
        threadsPerInput = max(1, threads)
        workerCount = max(1, cores / max(1, threads))
    }

    /// `$SLURM_CPUS_PER_TASK` under Slurm (the cores the job was given), else every core.
    public static func defaultWorkerCount(environment: [String: String]) -> Int {
        if let n = environment["SLURM_CPUS_PER_TASK"].flatMap({ Int($0) }), n > 0 { return n }
        return ProcessInfo.processInfo.activeProcessorCount
    }
}

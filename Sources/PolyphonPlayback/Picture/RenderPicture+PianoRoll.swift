extension RenderPicture {
    /// The keys the piano roll shows: the range played with two keys to spare, at least two
    /// octaves, so that a C is always named.
    func keyRange() -> ClosedRange<Int> {
        let pitches = notes.map(\.pitch)
        var low = max(0, (pitches.min() ?? 48) - 2), high = min(127, (pitches.max() ?? 72) + 2)
        while high - low < 24 {
            if low > 0 { low -= 1 }
            if high < 127 { high += 1 }
        }
        return low...high
    }

    /// The piano roll: a band per key (black keys darker), a line under each C with its name
    /// (C4 is middle C, MIDI 60), the notes in their instrument's colour.
    ///
    /// Notes are first set into a grid of one cell per key and pixel column, later notes over
    /// earlier ones, a note three columns or longer leaving its last column free so repeated
    /// notes stay apart; each row then becomes one rectangle per run of a colour. So a song's
    /// drawing is never more than a few thousand rectangles, whatever its number of notes.
    func drawPianoRoll(into d: inout PictureDrawing, instruments: [PictureInstrument], layout: Layout,
                       axis: PictureTimeAxis) {
        let keys = keyRange()
        let count = keys.count, top = layout.rollTop, height = layout.rollHeight
        func rowTop(_ key: Int) -> Int { top + height - (key - keys.lowerBound + 1) * height / count }
        func rowBottom(_ key: Int) -> Int { top + height - (key - keys.lowerBound) * height / count }

        caption("notes (piano roll)", right: "C4 = middle C", top: top, into: &d)
        for key in keys where [1, 3, 6, 8, 10].contains(key % 12) {
            d.fill(x: RenderPicture.Layout.left, y: rowTop(key), width: layout.plotWidth,
                   height: rowBottom(key) - rowTop(key), Theme.blackKey)
        }
        timeGrid(top: top, height: height, layout: layout, axis: axis, into: &d)
        for key in keys where key % 12 == 0 {
            d.fill(x: Layout.left, y: rowBottom(key) - 1, width: layout.plotWidth, height: 1, Theme.grid)
            let centre = (rowTop(key) + rowBottom(key)) / 2
            d.text("C\(key / 12 - 1)", x: Layout.left - 8, y: centre - PictureDrawing.TextSize.small.lineHeight / 2,
                   Theme.text, anchor: .end)
        }

        var colourOf: [PictureInstrument: Int16] = [:]
        for (k, instrument) in instruments.enumerated() { colourOf[instrument] = Int16(k) }
        let columns = layout.plotWidth
        var grid = [Int16](repeating: -1, count: count * columns)
        for note in notes {
            let row = note.pitch - keys.lowerBound
            guard row >= 0, row < count,
                  let colour = colourOf[PictureInstrument(program: note.program, isDrumKit: note.isDrum)] else { continue }
            let x0 = max(0, min(columns - 1, Int(note.onsetSeconds / axis.span * Double(columns))))
            var x1 = max(x0 + 1, min(columns, Int(note.offsetSeconds / axis.span * Double(columns))))
            if x1 - x0 >= 3 { x1 -= 1 }
            for x in x0..<x1 { grid[row * columns + x] = colour }
        }
        for row in 0..<count {
            let key = keys.lowerBound + row
            let y0 = rowTop(key), y1 = max(y0 + 1, rowBottom(key) - (height / count >= 4 ? 1 : 0))
            var x = 0
            while x < columns {
                let colour = grid[row * columns + x]
                var end = x + 1
                while end < columns && grid[row * columns + end] == colour { end += 1 }
                if colour >= 0 {
                    d.fill(x: Layout.left + x, y: y0, width: end - x, height: y1 - y0, instruments[Int(colour)].colour)
                }
                x = end
            }
        }
    }
}

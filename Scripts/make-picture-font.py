#!/usr/bin/env python3
"""Converts the Spleen bitmap font (Debian package fonts-spleen, BSD 2-Clause) into the Swift
source that render pictures draw their text with.

    apt-get install fonts-spleen
    Scripts/make-picture-font.py > Sources/PolyphonPlayback/Picture/SpleenGlyphs.swift

Reads the Linux console (PSF) versions of the 8x16 and 12x24 sizes and keeps printable ASCII,
Latin-1 and Latin Extended-A: one line per glyph, its code point then its rows as hexadecimal
(one byte per row for 8 pixels wide, two for 12), a string the Swift side decodes on first use
(a string literal compiles in a moment; an array literal of 20,000 numbers does not).

A few glyphs are redrawn, where Spleen's style makes one character pass for another at a glance
(and to OCR, which the tests read the pictures with), in a picture that is mostly digits:
the zero is an oval without its slash (which reads as 8), narrower than the letter O; the 4 is
closed (open, it reads as H); D has rounded corners (square, it reads as O); w has a middle
stroke down to the baseline (else it reads as u). In the small size only, but for the zero.
"""
import gzip
import sys

FONTS = sys.argv[1] if len(sys.argv) > 1 else "/usr/share/consolefonts"
WANTED = list(range(0x20, 0x7F)) + list(range(0xA0, 0x180))

# Redrawn glyphs, row by row ("#" set), top to bottom, by cell width and code point.
REDRAWN = {
    8: {
        0x30: ["........", "........", "..###...", ".##.##..", "##...##.", "##...##.", "##...##.", "##...##.",
               "##...##.", "##...##.", ".##.##..", "..###...", "........", "........", "........", "........"],
        0x34: ["........", "........", "....##..", "...###..", "..####..", ".##.##..", "##..##..", "##..##..",
               "#######.", "....##..", "....##..", "....##..", "........", "........", "........", "........"],
        0x44: ["........", "........", "#####...", "##..##..", "##...##.", "##...##.", "##...##.", "##...##.",
               "##...##.", "##...##.", "##..##..", "#####...", "........", "........", "........", "........"],
        0x77: ["........", "........", "........", "........", "........", "##...##.", "##...##.", "##.#.##.",
               "##.#.##.", "##.#.##.", "#######.", ".##.##..", "........", "........", "........", "........"],
    },
    12: {
        0x30: ["............"] * 4 + ["....####....", "...##..##...", "..##....##.."] + ["..##....##.."] * 10
              + ["...##..##...", "....####...."] + ["............"] * 5,
    },
}


def bitmap(rows, width, row_bytes):
    out = b""
    for row in rows:
        value = int(row.replace("#", "1").replace(".", "0"), 2) << (row_bytes * 8 - width)
        out += value.to_bytes(row_bytes, "big")
    return out


def read_psf(path):
    """Width, height, glyph bitmaps and code point → glyph index of a PSF1 or PSF2 font."""
    data = gzip.open(path).read()
    if data[:2] == b"\x36\x04":  # PSF1: 8 pixels wide, 256 or 512 glyphs, UCS-2 table
        mode, char_size = data[2], data[3]
        count = 512 if mode & 1 else 256
        width, height, header_size = 8, char_size, 4
        glyphs = [data[4 + k * char_size: 4 + (k + 1) * char_size] for k in range(count)]
        mapping = {}
        if mode & 2:
            table = data[4 + count * char_size:]
            index, position = 0, 0
            in_sequence = False
            while index < count and position + 1 < len(table):
                value = int.from_bytes(table[position:position + 2], "little")
                position += 2
                if value == 0xFFFF:
                    index += 1
                    in_sequence = False
                elif value == 0xFFFE:
                    in_sequence = True
                elif not in_sequence:
                    mapping.setdefault(value, index)
        return width, height, glyphs, mapping
    magic, version, header_size, flags, count, char_size, height, width = \
        [int.from_bytes(data[i:i + 4], "little") for i in range(0, 32, 4)]
    if magic != 0x864AB572:
        sys.exit(f"{path}: not a PSF font")
    glyphs = [data[header_size + k * char_size: header_size + (k + 1) * char_size] for k in range(count)]
    mapping = {}
    if flags & 1:
        table = data[header_size + count * char_size:]
        index, position = 0, 0
        while index < count and position < len(table):
            end = table.index(0xFF, position)
            entry = table[position:end]
            # Single code points come first, UTF-8 encoded; 0xFE starts sequences (skipped).
            singles = entry.split(b"\xFE")[0]
            for ch in singles.decode("utf-8"):
                mapping.setdefault(ord(ch), index)
            index += 1
            position = end + 1
    return width, height, glyphs, mapping


def emit(name, path):
    width, height, glyphs, mapping = read_psf(path)
    row_bytes = (width + 7) // 8
    lines = []
    for cp in WANTED:
        if cp not in mapping:
            continue
        glyph = glyphs[mapping[cp]]
        if cp in REDRAWN.get(width, {}):
            assert len(REDRAWN[width][cp]) == height
            glyph = bitmap(REDRAWN[width][cp], width, row_bytes)
        assert len(glyph) == row_bytes * height
        lines.append(f"{cp:04X} {glyph.hex().upper()}")
    print(f"    /// Spleen {width}×{height}: code point, then {height} rows of {row_bytes} byte(s), most significant bit leftmost.")
    print(f"    static let {name} = \"\"\"")
    for line in lines:
        print("        " + line)
    print("        \"\"\"")


print("""// Glyphs of Spleen 1.9.1 by Frederic Cambus (https://github.com/fcambus/spleen), converted by
// Scripts/make-picture-font.py from Debian's fonts-spleen, with 0, 4, D and w redrawn so that
// they cannot pass for 8, H, O and u (see the script). Do not edit by hand.
//
// Copyright (c) 2018-2020, Frederic Cambus
// All rights reserved.
//
// Redistribution and use in source and binary forms, with or without modification, are permitted
// provided that the following conditions are met:
//
//   * Redistributions of source code must retain the above copyright notice, this list of
//     conditions and the following disclaimer.
//
//   * Redistributions in binary form must reproduce the above copyright notice, this list of
//     conditions and the following disclaimer in the documentation and/or other materials
//     provided with the distribution.
//
// THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS "AS IS" AND ANY EXPRESS OR
// IMPLIED WARRANTIES, INCLUDING, BUT NOT LIMITED TO, THE IMPLIED WARRANTIES OF MERCHANTABILITY AND
// FITNESS FOR A PARTICULAR PURPOSE ARE DISCLAIMED. IN NO EVENT SHALL THE COPYRIGHT HOLDER OR
// CONTRIBUTORS BE LIABLE FOR ANY DIRECT, INDIRECT, INCIDENTAL, SPECIAL, EXEMPLARY, OR CONSEQUENTIAL
// DAMAGES (INCLUDING, BUT NOT LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR SERVICES; LOSS OF USE,
// DATA, OR PROFITS; OR BUSINESS INTERRUPTION) HOWEVER CAUSED AND ON ANY THEORY OF LIABILITY,
// WHETHER IN CONTRACT, STRICT LIABILITY, OR TORT (INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN
// ANY WAY OUT OF THE USE OF THIS SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.

/// The glyph data of ``BitmapFont``'s two sizes.
enum SpleenGlyphs {""")
emit("small", f"{FONTS}/spleen-8x16.psfu.gz")
print()
emit("large", f"{FONTS}/spleen-12x24.psfu.gz")
print("}")

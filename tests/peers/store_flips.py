#!/usr/bin/env python3
"""Copies of signed files with one bit flipped inside the embedded manifest store.

    python3 tests/peers/store_flips.py OUTDIR FILE... [--at 20,50,80,97]

For each FILE, the store is the first JUMBF superbox (`jumb`) whose description box has the
C2PA store type UUID (`c2pa`, 63327061-0011-0010-8000-00AA00389B71), found as contiguous
bytes in the file; its length is the superbox's LBox (32-bit or XLBox). For each percentage P
the copy OUTDIR/flipP_NAME has the byte at store start + floor(P/100 x length) XORed with 0x01
(the extension is kept, so compare_verdicts.py reads it as the same format). A file whose store
is not stored as plain bytes (SVG: base64 text; a PDF's compressed stream) or whose LBox runs
past the file is skipped and named on stderr. Prints one line per copy: OUTDIR/NAME, the store
offset and length, the flipped offset. docs/interop.md, "c2pa-rs fixtures, every format".
"""

import os
import struct
import sys

STORE_JUMD = b"jumd" + bytes.fromhex("6332706100110010800000aa00389b71")


def store_span(data):
    """(offset, length) of the first C2PA store superbox, or None.

    Layout: LBox(4) 'jumb' [XLBox(8) when LBox = 1] then the jumd box: LBox(4) 'jumd' UUID(16)."""
    at = data.find(STORE_JUMD)
    while at >= 0:
        for start, extended in ((at - 12, False), (at - 20, True)):
            if start < 0 or data[start + 4:start + 8] != b"jumb":
                continue
            lbox = struct.unpack(">I", data[start:start + 4])[0]
            if extended:
                if lbox != 1:
                    continue
                lbox = struct.unpack(">Q", data[start + 8:start + 16])[0]
            if 16 <= lbox and start + lbox <= len(data):
                return start, lbox
        at = data.find(STORE_JUMD, at + 1)
    return None


def main(argv):
    percents = [20, 50, 80, 97]
    if "--at" in argv:
        i = argv.index("--at")
        percents = [int(p) for p in argv[i + 1].split(",")]
        del argv[i:i + 2]
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    out, files = argv[0], argv[1:]
    os.makedirs(out, exist_ok=True)
    for f in files:
        with open(f, "rb") as h:
            data = h.read()
        span = store_span(data)
        if span is None:
            print("skipped (no contiguous store): %s" % f, file=sys.stderr)
            continue
        start, length = span
        for p in percents:
            at = start + (length * p) // 100
            b = bytearray(data)
            b[at] ^= 0x01
            name = os.path.join(out, "flip%d_%s" % (p, os.path.basename(f)))
            with open(name, "wb") as h:
                h.write(b)
            print("%s store %d+%d flipped %d" % (name, start, length, at))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

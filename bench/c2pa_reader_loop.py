#!/usr/bin/env python3
"""c2pa-python's Reader over many files in one process (the bench peer of `verify --json`).

    python3 bench/c2pa_reader_loop.py ANCHORS_PEM FILE...

Reads every file's manifest store with trust anchors and prints the number of files whose
validation_state is Trusted, the CPU seconds of the loop, then its wall seconds (stdout, one
line each; interpreter start-up and imports are not counted).
"""

import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "peers"))

import peerenv  # noqa: E402

peerenv.require()

import c2pa  # noqa: E402
import verdict  # noqa: E402

anchors, files = sys.argv[1], sys.argv[2:]
ctx = verdict.make_context([anchors])
t0 = time.perf_counter()
c0 = time.process_time()
trusted = 0
for f in files:
    mime = "video/mp4" if f.endswith(".mp4") else "image/jpeg"
    with open(f, "rb") as fh:
        r = c2pa.Reader(mime, fh, None, ctx)
        if r.get_validation_state() == "Trusted":
            trusted += 1
        r.close()
cpu = time.process_time() - c0
wall = time.perf_counter() - t0
print(trusted)
print("%.4f" % cpu)
print("%.4f" % wall)

#!/usr/bin/env python3
"""Compare `exhibit-archive verify` with c2pa-rs (via c2pa-python) on any set of files.

    python3 tests/peers/compare_verdicts.py [--bin PATH] [--trust PEM] [--tsa-trust PEM]
                                            [--all] FILE_OR_DIR...

For each file of a format both read (JPEG, ISO BMFF, PNG, RIFF, TIFF/DNG, GIF, SVG, JPEG XL,
MP3, FLAC, PDF; by extension; directories are walked), prints one line per disagreement:
integrity (intact / tampered / unsigned / malformed, c2pa-rs's rolled up by verdict.py) and the
set of failure codes (not compared when c2pa-rs's Reader threw, which yields no codes, and both
say malformed). `--all` prints agreements too. `--by-format` then prints one line per format
(our sniffed `container`, or `ext:<extension>` for a file no reader of ours knows): files,
agreeing, differing, and the integrity verdicts agreed on. Exit 0 when every file agrees, 1
otherwise.

A development tool, not part of the suite: point it at files the suite cannot ship, e.g. the
fixtures of a c2pa-rs checkout (`sdk/tests/fixtures`), which are the reference
implementation's own files. docs/interop.md lists the last comparison.
"""

import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
EXTENSIONS = (".jpg", ".jpeg", ".mp4", ".mov", ".m4v", ".m4a", ".heic", ".heif", ".avif", ".m4s",
              ".png", ".webp", ".wav", ".avi", ".tif", ".tiff", ".dng", ".gif", ".svg", ".jxl",
              ".mp3", ".flac", ".pdf")


def files_of(paths):
    out = []
    for p in paths:
        if os.path.isdir(p):
            for d, _, names in os.walk(p):
                out += [os.path.join(d, n) for n in sorted(names) if n.lower().endswith(EXTENSIONS)]
        else:
            out.append(p)
    return sorted(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(ROOT, ".build", "release", "exhibit-archive"))
    ap.add_argument("--trust")
    ap.add_argument("--tsa-trust")
    ap.add_argument("--all", action="store_true")
    ap.add_argument("--by-format", action="store_true")
    ap.add_argument("paths", nargs="+")
    a = ap.parse_args()
    files = files_of(a.paths)
    trust = (["--trust", a.trust] if a.trust else []) + (["--tsa-trust", a.tsa_trust] if a.tsa_trust else [])
    peer_out = subprocess.run([sys.executable, os.path.join(HERE, "c2pa_read.py"), *files, *trust],
                              capture_output=True, text=True, check=True).stdout
    peer = {d["file"]: d for d in map(json.loads, peer_out.splitlines())}
    ours = {}
    for f in files:  # one process per file: a crash or hang names its file
        r = subprocess.run([a.bin, "verify", "--json", "--no-media", *trust, f], capture_output=True, text=True, timeout=120)
        lines = [l for l in r.stdout.splitlines() if l.startswith("{")]
        ours[f] = json.loads(lines[0]) if lines else {"integrity": "crash", "statusCodes": {"failure": []}, "stderr": r.stderr[-200:]}
    differ = 0
    formats = {}
    for f in files:
        o, p = ours[f], peer.get(f, {})
        of = sorted({s["code"] for s in o["statusCodes"]["failure"]})
        pf = sorted(set(p.get("failureCodes") or []))
        # A Reader that throws gives no status codes: two malformed verdicts agree.
        threw = "error" in p and p.get("integrity") == "malformed"
        same = o["integrity"] == p.get("integrity") and (of == pf or threw)
        differ += not same
        fmt = o.get("container") or "ext:" + os.path.splitext(f)[1].lower().lstrip(".")
        row = formats.setdefault(fmt, {"files": 0, "differ": 0, "verdicts": {}})
        row["files"] += 1
        row["differ"] += not same
        if same:
            row["verdicts"][o["integrity"]] = row["verdicts"].get(o["integrity"], 0) + 1
        if a.all or not same:
            print("%-4s %s\n     ours  %-9s %s %s\n     c2pa  %-9s %s %s %s" % (
                "ok" if same else "DIFF", os.path.relpath(f), o["integrity"], of, o.get("c2paReason") or "",
                p.get("integrity"), p.get("validationState"), pf, (p.get("error") or "")[:100]))
    if a.by_format:
        for fmt in sorted(formats):
            r = formats[fmt]
            agreed = ", ".join("%s %d" % (k, v) for k, v in sorted(r["verdicts"].items()))
            print("format %-10s files %3d  agree %3d  differ %3d  (%s)" % (fmt, r["files"], r["files"] - r["differ"], r["differ"], agreed))
    print("%d of %d files differ" % (differ, len(files)))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())

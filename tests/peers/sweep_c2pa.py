#!/usr/bin/env python3
"""c2pa-rs's malleability: flip every byte of a file's manifest region, one at a time.

    python3 tests/peers/sweep_c2pa.py FILE --kind jpeg|mp4 [--trust PEM]... [--mask 0x01]

Each flipped copy is read with c2pa-rs. A flip "stays intact" when the summary is
integrity=intact and the trust is unchanged from the unflipped file. Prints one JSON
object: the region, the count read, and the flips that stayed intact, grouped into runs
labelled by the field they fall in (APP11 packet header, JUMBF box header, jumd, or
content of a labelled box; in c2pa.signature, the COSE `pad` run is named).
Roughly 250 reads per second: a 3.5 KB manifest (no timestamp) takes about 15 s.
"""

import argparse
import io
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import peerenv  # noqa: E402

peerenv.require()

import cbor2  # noqa: E402
import c2pa  # noqa: E402
import containers as ct  # noqa: E402
import verdict  # noqa: E402


def label_offsets(data, kind):
    """Map each file offset in the manifest region to a field label."""
    labels = {}
    if kind == "jpeg":
        store, runs, segs = ct.jpeg_c2pa_store(data)
        for z, s in enumerate(segs, 1):
            names = ["marker", "marker", "Lp", "Lp", "CI", "CI", "En", "En", "Z", "Z", "Z", "Z",
                     "LBox", "LBox", "LBox", "LBox", "TBox", "TBox", "TBox", "TBox"]
            for k, n in enumerate(names):
                labels[s.offset + k] = f"APP11[{z}].{n}"
        to_file = lambda o: ct.map_store_offset(runs, o)  # noqa: E731
        region = (segs[0].offset, segs[-1].offset + segs[-1].length)
    else:
        box, _p, _m, jo = ct.bmff_c2pa_box(data)
        store = data[jo:box.end]
        for o in range(box.offset, jo):
            labels[o] = "uuid.header"
        to_file = lambda o: jo + o  # noqa: E731
        region = (box.offset, box.end)
    root = ct.parse_jumbf(store)
    pad_span = None
    for path, b in root.walk():
        name = path or "/"
        for o in range(b.offset, b.payload_offset):
            labels.setdefault(to_file(o), f"{name}:box-header")
        if b.desc is not None:
            for o in range(b.desc.offset, b.desc.end):
                labels.setdefault(to_file(o), f"{name}:jumd")
        for c in b.children:
            if c.type != "jumb":
                for o in range(c.offset, c.payload_offset):
                    labels.setdefault(to_file(o), f"{name}:{c.type}-header")
                for o in range(c.payload_offset, c.end):
                    labels.setdefault(to_file(o), f"{name}:{c.type}")
                if name.endswith("c2pa.signature"):
                    blob = store[c.payload_offset:c.end]
                    pad = cbor2.loads(blob).value[1].get("pad")
                    if pad:
                        enc = cbor2.dumps(pad)
                        k = blob.find(enc)
                        pad_span = (c.payload_offset + k + len(enc) - len(pad),
                                    c.payload_offset + k + len(enc))
    if pad_span:
        for o in range(*pad_span):
            labels[to_file(o)] = "c2pa.signature:COSE pad"
    return region, labels


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--kind", choices=["jpeg", "mp4"], required=True)
    ap.add_argument("--trust", action="append", default=[])
    ap.add_argument("--mask", default="0x01")
    args = ap.parse_args(argv[1:])
    mask = int(args.mask, 0)
    data = open(args.file, "rb").read()
    mime = "image/jpeg" if args.kind == "jpeg" else "video/mp4"
    ctx = verdict.make_context(args.trust)
    base = verdict.read(args.file, ctx, mime)
    region, labels = label_offsets(data, "jpeg" if args.kind == "jpeg" else "mp4")
    intact = []
    for o in range(*region):
        b = bytearray(data)
        b[o] ^= mask
        v = read_bytes(bytes(b), mime, ctx)
        if v["integrity"] == "intact" and v["trust"] == base["trust"]:
            intact.append(o)
    groups = []
    for o in intact:
        lab = labels.get(o, "?")
        if groups and groups[-1]["label"] == lab and groups[-1]["end"] == o:
            groups[-1]["end"] = o + 1
        else:
            groups.append({"label": lab, "start": o, "end": o + 1})
    print(json.dumps({"file": args.file, "region": list(region), "read": region[1] - region[0],
                      "base": {"integrity": base["integrity"], "trust": base["trust"]},
                      "intactCount": len(intact), "intactRuns": groups}, indent=1))
    return 0


def read_bytes(blob, mime, ctx):
    try:
        r = c2pa.Reader(mime, io.BytesIO(blob), None, ctx)
        try:
            res = r.get_validation_results() or {}
        finally:
            r.close()
    except Exception:
        return {"integrity": "unreadable", "trust": None}
    am = res.get("activeManifest", {})
    integrity, trust, _ts = verdict.summarize(
        am.get("success") or [], am.get("informational") or [], am.get("failure") or [])
    return {"integrity": integrity, "trust": trust}


if __name__ == "__main__":
    sys.exit(main(sys.argv))

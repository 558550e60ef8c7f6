#!/usr/bin/env python3
"""Seed corpora for the fuzz harnesses, cut from a capture-synth dump (the project's own
writers: JPEG/APP11, ISO BMFF, JUMBF, CBOR, COSE, X.509, RFC 3161, the capture record,
disclosure bundles, CAF). Usage: make-seeds.py DUMP OUT  (OUT/<target>/<sha1> files).

Large media are cut to skeletons (JPEG: every segment, 64 bytes of scan data, EOI; MP4: the
mdat payload dropped, its size fixed) so that libFuzzer mutates headers, not pixels."""
import hashlib, os, struct, sys
import cbor2

dump, out = sys.argv[1], sys.argv[2]

def save(target, data):
    if not data: return
    d = os.path.join(out, target); os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, hashlib.sha1(data).hexdigest()), "wb") as f: f.write(data)

def jpeg_segments(b):
    """(marker, start, end) up to and including SOS; then the scan start."""
    at, segs = 2, []
    while at + 4 <= len(b):
        if b[at] != 0xFF: break
        m = b[at + 1]
        if m == 0xFF: at += 1; continue
        if m == 0xD9: break
        n = struct.unpack(">H", b[at + 2:at + 4])[0]
        segs.append((m, at, at + 2 + n)); at += 2 + n
        if m == 0xDA: break
    return segs, at

def jpeg_skeleton(b):
    segs, scan = jpeg_segments(b)
    return b[:scan] + b[scan:scan + 64] + b"\xff\xd9"

def app11_store(b):
    segs, _ = jpeg_segments(b)
    parts = []
    for m, s, e in segs:
        if m != 0xEB or b[s + 4:s + 6] != b"JP": continue
        z = struct.unpack(">I", b[s + 8:s + 12])[0]
        parts.append(b[s + 12:e] if z == 1 else b[s + 20:e])
    return b"".join(parts)

def boxes(b, start=0, end=None):
    at, end = start, len(b) if end is None else end
    while at + 8 <= end:
        size, kind = struct.unpack(">I", b[at:at + 4])[0], b[at + 4:at + 8]
        head = 8
        if size == 1: size, head = struct.unpack(">Q", b[at + 8:at + 16])[0], 16
        elif size == 0: size = end - at
        if size < head or at + size > end: return
        yield kind, at, at + head, at + size
        at += size

def mp4_skeleton(b):
    out_ = b""
    for kind, s, c, e in boxes(b):
        out_ += struct.pack(">I", 8) + b"mdat" if kind == b"mdat" else b[s:e]
    return out_

def mp4_store(b):
    for kind, s, c, e in boxes(b):
        if kind == b"uuid":
            # uuid(16) version/flags(4) "manifest\0" offset(8) store
            body = b[c + 16:e]
            i = body.find(b"manifest\x00")
            if i >= 0: return body[i + 9 + 8:]
    return b""

def jumbf_contents(b, start=0, end=None, label=""):
    """(label, box type, content) of every content box, recursively."""
    for kind, s, c, e in boxes(b, start, end):
        if kind == b"jumb":
            inner = list(boxes(b, c, e))
            lab = label
            if inner and inner[0][0] == b"jumd":
                d = b[inner[0][2]:inner[0][3]]
                if len(d) > 17 and d[16] & 2:
                    lab = d[17:].split(b"\x00")[0].decode("utf-8", "replace")
            yield from jumbf_contents(b, c, e, lab)
        elif kind != b"jumd":
            yield label, kind, b[c:e]

def from_store(store):
    save("jumbf", store)
    for label, kind, content in jumbf_contents(store):
        if kind != b"cbor": continue
        save("cbor", content)
        if label.startswith("c2pa.claim"):
            save("claim", bytes([0 if label.endswith("v2") else 1]) + content)
        elif label == "c2pa.signature":
            save("cose", content)
            try:
                sign1 = cbor2.loads(content)
                sign1 = sign1.value if isinstance(sign1, cbor2.CBORTag) else sign1
                protected = cbor2.loads(sign1[0]) if sign1[0] else {}
                chain = protected.get(33) or sign1[1].get(33) or []
                chain = [chain] if isinstance(chain, bytes) else chain
                save("x509", b"".join(struct.pack(">H", len(c)) + c for c in chain))
                for c in chain: save("x509", struct.pack(">H", len(c)) + c)
                for key in ("sigTst", "sigTst2"):
                    for tok in (sign1[1].get(key) or {}).get("tstTokens", []):
                        save("tst", tok["val"])
            except Exception as e:
                print("make-seeds: signature not decoded:", e, file=sys.stderr)
        elif label.startswith("c2pa.hash.data"): save("claim", b"\x02" + content)
        elif label.startswith("c2pa.hash.bmff"): save("claim", b"\x03" + content)
        elif label.startswith("c2pa.ingredient"): save("claim", b"\x04" + content)
        elif label.startswith("cawg.identity"): save("claim", b"\x05" + content)
        else: save("record", content)

for root, dirs, files in os.walk(os.path.join(dump, "captures")):
    for name in files:
        path = os.path.join(root, name)
        b = open(path, "rb").read()
        if name.endswith(".jpg") and "/evidence/" not in path:
            sk = jpeg_skeleton(b); save("jpeg", sk); save("manifest", sk); from_store(app11_store(b))
        elif name.endswith(".mp4"):
            sk = mp4_skeleton(b); save("bmff", sk); save("mp4", sk); save("manifest", sk); from_store(mp4_store(b))
        elif name.endswith(".bundle.json"): save("bundle", b)
        elif name.endswith(".caf"): save("caf", b[:4096])
    if os.path.basename(root) == "ring":
        save("ring", "\n".join(sorted(files)).encode())

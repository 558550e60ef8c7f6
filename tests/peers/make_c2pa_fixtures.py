#!/usr/bin/env python3
"""Independent-peer fixtures: C2PA files signed and judged by c2pa-rs (c2pa-python).

    python3 tests/peers/make_c2pa_fixtures.py OUTDIR

Writes into OUTDIR:
    pki/…                    the openssl test PKI (keys, certs, configs)
    signer-anchors.pem       signer trust anchor (root CA)
    tsa-anchors.pem          TSA trust anchor (separate root)
    media/…                  the unsigned sources (ffmpeg testsrc JPEG, two MP4 layouts)
    jpeg/… mp4-faststart/… mp4-moovlast/…   signed and tampered files (+ .jumbf stores)
    verdicts.json            c2pa-rs's verdict on every file (see docs/interop.md)
    verdicts.md              the same as a Markdown table

Runs under whatever python3 has c2pa-python installed (the repo's .venv).
See docs/interop.md for what each variant is and what c2pa-rs said.
"""

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time


HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import peerenv  # noqa: E402

peerenv.require()

import cbor2  # noqa: E402

import c2pa  # noqa: E402
import containers as ct  # noqa: E402
import pki as pkimod  # noqa: E402
import tsa as tsamod  # noqa: E402
import verdict  # noqa: E402

MANIFEST = {
    "claim_generator_info": [{"name": "exhibit-archive-peers", "version": "1.0"}],
    "title": "exhibit-peer-fixture",
    "assertions": [
        {"label": "c2pa.actions",
         "data": {"actions": [{"action": "c2pa.created",
                               "digitalSourceType":
                               "http://cv.iptc.org/newscodes/digitalsourcetype/digitalCapture"}]}},
        {"label": "org.exhibit.test", "data": {"note": "peer fixture", "n": 1}},
    ],
}

FFMPEG_EXACT = ["-threads", "1", "-fflags", "+bitexact", "-flags", "+bitexact"]


class FixtureError(Exception):
    pass


# ------------------------------------------------------------------ media

def run(args):
    p = subprocess.run(args, capture_output=True)
    if p.returncode != 0:
        raise FixtureError(f"{args[0]} failed: {p.stderr.decode(errors='replace')[-2000:]}")
    return p


def make_media(mdir):
    os.makedirs(mdir, exist_ok=True)
    jpg = os.path.join(mdir, "plain.jpg")
    run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=640x480:rate=1",
         "-frames:v", "1"] + FFMPEG_EXACT + [jpg])
    out = {"jpeg": jpg}
    for layout, flags in (("mp4-faststart", ["-movflags", "+faststart"]), ("mp4-moovlast", [])):
        tmp = os.path.join(mdir, f"{layout}.ffmpeg.mp4")
        run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=25",
             "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-t", "2",
             "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac"] + FFMPEG_EXACT + flags + [tmp])
        data = open(tmp, "rb").read()
        os.remove(tmp)
        # Give the file a top-level `free` box with a payload (ffmpeg's own is 8 bytes,
        # header only) so a flip can land inside one; offsets are fixed up.
        mdat = next(b for b in ct.bmff_boxes(data) if b.type == "mdat")
        free = (8 + 24).to_bytes(4, "big") + b"free" + b"exhibit-free-box-payload"
        data = ct.insert_bytes(data, mdat.offset, free)
        path = os.path.join(mdir, f"{layout}.mp4")
        open(path, "wb").write(data)
        out[layout] = path
    return out


def decodes(path):
    """True when ffmpeg decodes the whole file without an error."""
    p = subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-f", "null", "-"],
                       capture_output=True)
    return p.returncode == 0 and not p.stderr.strip()


# ------------------------------------------------------------------ signing

def sign(src, dst, mime, issued, alg, ta_url, context):
    info = c2pa.C2paSignerInfo(alg, issued.chain_pem(), issued.key_pem(), ta_url)
    signer = c2pa.Signer.from_info(info)
    builder = c2pa.Builder(MANIFEST, context)
    try:
        with open(src, "rb") as fi, open(dst, "w+b") as fo:
            store = builder.sign(signer, mime, fi, fo)
    finally:
        signer.close()
        builder.close()
    return store


# ------------------------------------------------------------------ locating bytes

class Located:
    """The manifest store of a signed file, with a map from store offsets to file offsets."""

    def __init__(self, data, kind):
        self.data = data
        self.kind = kind
        if kind == "jpeg":
            self.store, runs, self.segments = ct.jpeg_c2pa_store(data)
            self.to_file = lambda off: ct.map_store_offset(runs, off)
            self.region = (self.segments[0].offset,
                           self.segments[-1].offset + self.segments[-1].length)
        else:
            box, _purpose, _merkle, jo = ct.bmff_c2pa_box(data)
            self.store = data[jo:box.end]
            self.to_file = lambda off: jo + off
            self.box = box
            self.region = (box.offset, box.end)
        self.root = ct.parse_jumbf(self.store)
        self.manifest = self.root.children[-1]   # the active manifest is the last one

    def content(self, *labels):
        box = self.manifest
        for lab in labels:
            box = box.find(lab)
            if box is None:
                raise FixtureError(f"no JUMBF box {'/'.join(labels)}")
        c = box.content()
        return c.payload_offset, self.store[c.payload_offset:c.end]

    def claim_label(self):
        for ch in self.manifest.children:
            if ch.label in ("c2pa.claim", "c2pa.claim.v2"):
                return ch.label
        raise FixtureError("no claim box")

    def hash_label(self):
        for ch in self.manifest.find("c2pa.assertions").children:
            if ch.label.startswith("c2pa.hash."):
                return ch.label
        raise FixtureError("no hash assertion")

    def find_in(self, labels, needle, nth=0):
        """File offset of `needle` inside a content box (plus nth bytes)."""
        off, blob = self.content(*labels)
        i = blob.find(needle)
        if i < 0:
            raise FixtureError(f"{needle[:16]!r} not found in {'/'.join(labels)}")
        return self.to_file(off + i + nth)

    def cose(self):
        _off, blob = self.content("c2pa.signature")
        return cbor2.loads(blob).value


def flip(data, offset, mask=0x01):
    b = bytearray(data)
    b[offset] ^= mask
    return bytes(b)


# ------------------------------------------------------------------ tampers

def t_media_flip(loc):
    d = loc.data
    if loc.kind == "jpeg":
        sos = next(s for s in ct.jpeg_segments(d) if s.marker == 0xDA)
        start = sos.offset + sos.length
        i = start + (len(d) - 2 - start) // 2
        while d[i] >= 0xFE or d[i - 1] == 0xFF:      # stay clear of markers and stuffing
            i += 1
        return flip(d, i), f"scan byte at {i} (entropy-coded data, outside the manifest)"
    mdat = next(b for b in ct.bmff_boxes(d) if b.type == "mdat")
    i = mdat.payload_offset + (mdat.end - mdat.payload_offset) // 2
    return flip(d, i), f"mdat payload byte at {i}"


def t_claim_flip(loc):
    i = loc.find_in([loc.claim_label()], b"xmp.iid:", nth=len(b"xmp.iid:"))
    return flip(loc.data, i), f"claim CBOR: first character of instanceID's UUID at {i} (CBOR stays valid)"


def t_claim_cbor_garbage(loc):
    off, _ = loc.content(loc.claim_label())
    i = loc.to_file(off)
    b = bytearray(loc.data)
    b[i] = 0xFF
    return bytes(b), f"claim CBOR's first byte set to 0xFF (a lone break) at {i}"


def t_signature_flip(loc):
    sig = loc.cose()[3]
    i = loc.find_in(["c2pa.signature"], sig, nth=len(sig) - 1)
    return flip(loc.data, i), f"last byte of the COSE_Sign1 signature at {i}"


def t_assertion_flip(loc):
    i = loc.find_in(["c2pa.assertions", "org.exhibit.test"], b"peer fixture")
    return flip(loc.data, i), f"org.exhibit.test CBOR: text 'peer fixture' first char at {i}"


def t_hash_assertion_flip(loc):
    label = loc.hash_label()
    _off, blob = loc.content("c2pa.assertions", label)
    h = cbor2.loads(blob)["hash"]
    i = loc.find_in(["c2pa.assertions", label], h)
    return flip(loc.data, i), f"{label}: first byte of the 'hash' value at {i}"


def t_certificate_flip(loc):
    leaf = cbor2.loads(loc.cose()[0])[33]
    leaf = leaf[0] if isinstance(leaf, list) else leaf
    j = leaf.find(b"Exhibit Test Device")
    if j < 0:
        raise FixtureError("leaf subject not found")
    # The subject CN appears once (issuer is the intermediate); flip inside the TBS.
    i = loc.find_in(["c2pa.signature"], leaf, nth=j + len(b"Exhibit "))
    return flip(loc.data, i), f"x5chain leaf DER: a subject CN character at {i} (TBS changes, key intact)"


def _tst_token(loc):
    """The first RFC 3161 token in sigTst2 (or v1 sigTst), or None."""
    uh = loc.cose()[1]
    tst = uh.get("sigTst2") or uh.get("sigTst")
    return tst["tstTokens"][0]["val"] if tst else None


def t_tst_flip(loc):
    tok = _tst_token(loc)
    if tok is None:
        return None, None
    i = loc.find_in(["c2pa.signature"], tok, nth=len(tok) - 1)
    return flip(loc.data, i), f"last byte of the RFC 3161 token (TSA signature value) at {i}"


SHA256_IMPRINT = re.compile(rb"\x06\x09\x60\x86\x48\x01\x65\x03\x04\x02\x01(?:\x05\x00)?\x04\x20")


def t_tst_imprint_flip(loc):
    tok = _tst_token(loc)
    if tok is None:
        return None, None
    # TSTInfo.messageImprint: AlgorithmIdentifier(sha256) then OCTET STRING(32). The
    # SignedData digestAlgorithms set names sha256 too, but without a following 04 20.
    m = SHA256_IMPRINT.search(tok)
    if not m:
        raise FixtureError("messageImprint not found in the token")
    i = loc.find_in(["c2pa.signature"], tok, nth=m.end())
    return flip(loc.data, i), f"first byte of the token's TSTInfo messageImprint at {i}"


def t_pad_flip(loc):
    pad = loc.cose()[1].get("pad")
    if not pad:
        return None, None
    _off, blob = loc.content("c2pa.signature")
    # The pad bstr's content is the zero run that ends the COSE unprotected map.
    tok = cbor2.dumps(pad)
    k = blob.find(tok)
    i = loc.to_file(_off + k + len(tok) - len(pad) // 2)
    return flip(loc.data, i), f"a byte in the middle of the COSE unprotected 'pad' at {i}"


def t_truncate_media(loc):
    d = loc.data
    end = loc.region[1]
    cut = end + (len(d) - end) // 2
    return d[:cut], f"file cut at {cut} of {len(d)} (after the manifest)"


def t_truncate_manifest(loc):
    lo, hi = loc.region
    cut = (lo + hi) // 2
    return loc.data[:cut], f"file cut at {cut}, inside the manifest [{lo},{hi})"


def t_stripped(loc):
    d = loc.data
    if loc.kind == "jpeg":
        out = bytearray()
        pos = 0
        for s in loc.segments:
            out += d[pos:s.offset]
            pos = s.offset + s.length
        out += d[pos:]
        return bytes(out), f"{len(loc.segments)} APP11 segment(s) removed"
    b = loc.box
    return ct.remove_bytes(d, b.offset, b.size), f"C2PA uuid box removed ({b.size} bytes), chunk offsets fixed"


def t_ftyp_flip(loc):
    if loc.kind == "jpeg":
        return None, None
    ftyp = next(b for b in ct.bmff_boxes(loc.data) if b.type == "ftyp")
    i = ftyp.payload_offset + 4 + 3     # low byte of minor_version
    return flip(loc.data, i), f"ftyp minor_version low byte at {i}"


def t_free_flip(loc):
    if loc.kind == "jpeg":
        return None, None
    free = next(b for b in ct.bmff_boxes(loc.data) if b.type == "free" and b.size > 8)
    i = free.payload_offset + 2
    return flip(loc.data, i), f"payload byte of a top-level free box at {i}"


def t_moov_flip(loc):
    if loc.kind == "jpeg":
        return None, None
    moov = next(b for b in ct.bmff_boxes(loc.data) if b.type == "moov")
    mvhd = ct.bmff_boxes(loc.data, moov.payload_offset, moov.end)[0]
    i = mvhd.payload_offset + 4 + 8 + 4 + 3   # mvhd v0: low byte of duration
    return flip(loc.data, i), f"moov/mvhd duration low byte at {i}"


def t_uuid_purpose_flip(loc):
    if loc.kind == "jpeg":
        return None, None
    i = loc.box.payload_offset + 4      # first char of the purpose string "manifest"
    return flip(loc.data, i), f"C2PA uuid box purpose string first char at {i}"


def t_app11_en_flip(loc):
    if loc.kind != "jpeg":
        return None, None
    i = loc.segments[0].payload_offset + 3      # En low byte
    return flip(loc.data, i), f"APP11 first packet's En (box instance) low byte at {i}"


TAMPERS = [
    ("media-flip", t_media_flip),
    ("claim-flip", t_claim_flip),
    ("claim-cbor-garbage", t_claim_cbor_garbage),
    ("signature-flip", t_signature_flip),
    ("assertion-flip", t_assertion_flip),
    ("hash-assertion-flip", t_hash_assertion_flip),
    ("certificate-flip", t_certificate_flip),
    ("timestamp-token-flip", t_tst_flip),
    ("timestamp-imprint-flip", t_tst_imprint_flip),
    ("pad-flip", t_pad_flip),
    ("truncate-media", t_truncate_media),
    ("truncate-manifest", t_truncate_manifest),
    ("stripped", t_stripped),
    ("ftyp-flip", t_ftyp_flip),
    ("free-flip", t_free_flip),
    ("moov-flip", t_moov_flip),
    ("uuid-purpose-flip", t_uuid_purpose_flip),
    ("app11-en-flip", t_app11_en_flip),
]

def t_app11_drop_last(loc):
    if loc.kind != "jpeg" or len(loc.segments) < 2:
        return None, None
    s = loc.segments[-1]
    return loc.data[:s.offset] + loc.data[s.offset + s.length:], \
        f"last APP11 packet (Z={len(loc.segments)}) removed: the store loses its tail"


def t_app11_duplicate(loc):
    if loc.kind != "jpeg" or len(loc.segments) < 2:
        return None, None
    s = loc.segments[-1]
    seg = loc.data[s.offset:s.offset + s.length]
    return loc.data[:s.offset + s.length] + seg + loc.data[s.offset + s.length:], \
        "last APP11 packet repeated (same Z twice)"


def t_app11_z_gap(loc):
    if loc.kind != "jpeg" or len(loc.segments) < 2:
        return None, None
    i = loc.segments[-1].payload_offset + 4 + 3      # Z low byte of the last packet
    b = bytearray(loc.data)
    b[i] += 1
    return bytes(b), f"last APP11 packet's Z bumped by one (sequence gap) at {i}"


MULTI_TAMPERS = [
    ("app11-drop-last", t_app11_drop_last),
    ("app11-duplicate", t_app11_duplicate),
    ("app11-z-gap", t_app11_z_gap),
]
MULTI_BASE = "trusted-es256-thumbnail"

# Signed bases: (variant, signer role, COSE alg, with timestamp, kinds)
ALL = ("jpeg", "mp4-faststart", "mp4-moovlast")
BASES = [
    ("trusted-es256", "es256", "es256", False, ALL),
    ("trusted-es256-tsa", "es256", "es256", True, ALL),
    ("trusted-es384-tsa", "es384", "es384", True, ("jpeg",)),
    ("trusted-es512-tsa", "es512", "es512", True, ("jpeg",)),
    ("trusted-ps256-tsa", "ps256", "ps256", True, ("jpeg",)),
    ("trusted-ed25519-tsa", "ed25519", "ed25519", True, ("jpeg",)),
    ("trusted-es256-thumbnail", "es256", "es256", True, ("jpeg",)),
    ("selfsigned", "selfsigned", "es256", False, ALL),
    ("selfsigned-tsa", "selfsigned", "es256", True, ("jpeg",)),
    ("untrusted-root", "untrusted", "es256", False, ALL),
    ("untrusted-root-tsa", "untrusted", "es256", True, ("jpeg",)),
]
TAMPER_BASE = "trusted-es256-tsa"

EXT = {"jpeg": ".jpg", "mp4-faststart": ".mp4", "mp4-moovlast": ".mp4"}
MIME = {"jpeg": "image/jpeg", "mp4-faststart": "video/mp4", "mp4-moovlast": "video/mp4"}


def store_info(data, kind):
    """Where the manifest store sits in a file (None when it cannot be located)."""
    try:
        loc = Located(data, kind)
    except TypeError:
        return None, {"located": False, "reason": "no C2PA store found"}
    except Exception as e:  # tampered containers may not parse; say so
        return None, {"located": False, "reason": f"{type(e).__name__}: {e}"}
    info = {"located": True, "region": list(loc.region), "storeLength": len(loc.store),
            "storeSha256": hashlib.sha256(loc.store).hexdigest(),
            "claimLabel": None, "hashLabel": None}
    try:
        info["claimLabel"] = loc.claim_label()
        info["hashLabel"] = loc.hash_label()
    except Exception:
        pass
    if kind == "jpeg":
        info["app11"] = [[s.offset, s.length] for s in loc.segments]
    return loc, info


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    t0 = time.monotonic()
    out = os.path.abspath(argv[1])
    os.makedirs(out, exist_ok=True)
    roles = pkimod.build(os.path.join(out, "pki"))
    for name in ("signer-anchors.pem", "tsa-anchors.pem"):
        shutil.copyfile(os.path.join(out, "pki", name), os.path.join(out, name))
    signer_anchors = os.path.join(out, "signer-anchors.pem")
    tsa_anchors = os.path.join(out, "tsa-anchors.pem")
    media = make_media(os.path.join(out, "media"))
    build_ctx = c2pa.Context.from_dict({"builder": {"thumbnail": {"enabled": False}}})
    # c2pa-rs's default (a JPEG thumbnail assertion) makes the store exceed one APP11
    # segment: the "-thumbnail" variant exercises multi-packet reassembly.
    thumb_ctx = c2pa.Context.from_dict({"builder": {"thumbnail": {"enabled": True}}})

    files = []   # (path, kind, variant, description, trust-config)

    def add(path, kind, variant, desc, config="signer+tsa"):
        files.append({"path": path, "kind": kind, "variant": variant,
                      "description": desc, "trustConfig": config})

    with tsamod.LocalTSA(roles["tsa"].cert_path, roles["tsa"].key_path, os.path.join(out, "pki")) as tsa:
        for kind in ALL:
            os.makedirs(os.path.join(out, kind), exist_ok=True)
            src = media[kind]
            plain = os.path.join(out, kind, "unsigned" + EXT[kind])
            shutil.copyfile(src, plain)
            add(plain, kind, "unsigned", "the source media, never signed")
            for variant, role, alg, with_ts, kinds in BASES:
                if kind not in kinds:
                    continue
                dst = os.path.join(out, kind, variant + EXT[kind])
                store = sign(src, dst, MIME[kind], roles[role], alg,
                             tsa.url if with_ts else None,
                             thumb_ctx if variant.endswith("-thumbnail") else build_ctx)
                open(dst + ".jumbf", "wb").write(store)
                chain = "self-signed leaf" if role == "selfsigned" else (
                    "leaf + intermediate under the untrusted private root" if role == "untrusted"
                    else "leaf + intermediate under the signer root")
                add(dst, kind, variant,
                    f"{alg.upper()}, {chain}, {'RFC 3161 timestamp' if with_ts else 'no timestamp'}"
                    + (", c2pa.thumbnail.claim assertion (multi-segment APP11)"
                       if variant.endswith("-thumbnail") else ""))
        tsa_requests = tsa.requests

    plan = [(kind, TAMPER_BASE, TAMPERS) for kind in ALL] + [("jpeg", MULTI_BASE, MULTI_TAMPERS)]
    for kind, base_variant, tampers in plan:
        base = os.path.join(out, kind, base_variant + EXT[kind])
        loc = Located(open(base, "rb").read(), kind)
        for name, fn in tampers:
            data, desc = fn(loc)
            if data is None:
                continue
            if data == loc.data:
                raise FixtureError(f"{kind}/{name} changed nothing")
            dst = os.path.join(out, kind, name + EXT[kind])
            open(dst, "wb").write(data)
            add(dst, kind, name, f"{base_variant} with {desc}")

    # The same files under other trust configurations.
    j = os.path.join(out, "jpeg")
    add(os.path.join(j, "trusted-es256-tsa.jpg"), "jpeg", "trusted-es256-tsa",
        "read with the signer anchor only (TSA root not anchored)", "signer-only")
    add(os.path.join(j, "trusted-es256-tsa.jpg"), "jpeg", "trusted-es256-tsa",
        "read with no anchors at all", "none")
    add(os.path.join(j, "selfsigned.jpg"), "jpeg", "selfsigned",
        "read with the self-signed leaf itself as an anchor", "selfsigned-anchored")
    selfsigned_anchor = roles["selfsigned"].cert_path

    contexts = {
        "signer+tsa": verdict.make_context([signer_anchors, tsa_anchors]),
        "signer-only": verdict.make_context([signer_anchors]),
        "none": verdict.make_context([]),
        "selfsigned-anchored": verdict.make_context([selfsigned_anchor, tsa_anchors]),
    }
    records = []
    for f in files:
        v = verdict.read(f["path"], contexts[f["trustConfig"]], MIME[f["kind"]])
        data = open(f["path"], "rb").read()
        _loc, sinfo = store_info(data, f["kind"])
        rec = {"file": os.path.relpath(f["path"], out), "kind": f["kind"],
               "variant": f["variant"], "description": f["description"],
               "trustConfig": f["trustConfig"], "size": len(data),
               "sha256": hashlib.sha256(data).hexdigest(), "manifestStore": sinfo}
        if os.path.exists(f["path"] + ".jumbf"):
            rec["jumbfFile"] = os.path.relpath(f["path"] + ".jumbf", out)
        if f["variant"] == "stripped":
            rec["decodes"] = decodes(f["path"])
        v.pop("file", None)
        rec.update(v)
        records.append(rec)

    doc = {
        "generator": "tests/peers/make_c2pa_fixtures.py",
        "c2paPython": _pkg_version(),
        "c2paRs": c2pa.sdk_version(),
        "anchors": {"signer": "signer-anchors.pem", "tsa": "tsa-anchors.pem"},
        "readerSettings": {"trust.trust_anchors": "signer-anchors.pem + tsa-anchors.pem "
                           "(c2pa-rs has one list for both)",
                           "verify.verify_trust": True, "verify.verify_timestamp_trust": True},
        "tsaRequests": tsa_requests,
        "seconds": round(time.monotonic() - t0, 2),
        "files": records,
    }
    with open(os.path.join(out, "verdicts.json"), "w") as fh:
        json.dump(doc, fh, indent=1)
    with open(os.path.join(out, "verdicts.md"), "w") as fh:
        fh.write(markdown(records))
    print(f"{len(records)} verdicts in {doc['seconds']} s -> {os.path.join(out, 'verdicts.json')}")
    return 0


def _pkg_version():
    try:
        from importlib.metadata import version
        return version("c2pa-python")
    except Exception:
        return None


def markdown(records):
    rows = ["| kind | variant | trust config | state | integrity | trust | timestamp | key failure | failure codes |",
            "|---|---|---|---|---|---|---|---|---|"]
    for r in records:
        fails = ", ".join(sorted({x["code"] for x in r["statusCodes"]["failure"]})) or (
            r.get("error", "")[:60])
        rows.append(f"| {r['kind']} | {r['variant']} | {r['trustConfig']} | {r['validationState']} | "
                    f"{r['integrity']} | {r['trust']} | {r['timestamp']} | {r['keyFailure']} | {fails} |")
    return "\n".join(rows) + "\n"


if __name__ == "__main__":
    sys.exit(main(sys.argv))

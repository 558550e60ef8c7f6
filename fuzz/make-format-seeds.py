#!/usr/bin/env python3
"""Seed corpora for the container harnesses of issue 16 (png, riff, tiff, gif, svg, jxl, id3,
pdf) and for inflate. Usage: make-format-seeds.py OUT  (OUT/<target>/<sha1> files).

Each format's sample is made here as the suite's FormatSamples makes it (ffmpeg lavfi pictures
and sounds, bit-exact, one thread; JPEG XL wrapped into its box container; the SVG and the
one-page PDF written out), then signed by c2pa-rs through tests/peers/format_fixtures.py, once
with the store embedded and once with only a remote reference in its XMP. The unsigned sample,
the embedded and the remote file are the seeds. WebP, WAV and AVI all seed `riff`; the id3
harness reads its first byte as the MP3/FLAC switch (0 MP3, 1 FLAC), the inflate harness as
the wrapper (0 zlib, 1 raw deflate). Nothing fetched goes in: every byte is made here."""
import hashlib, json, os, subprocess, sys, tempfile, zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
out = sys.argv[1]

PICTURE = ["-f", "lavfi", "-i", "testsrc=size=64x48:rate=1", "-frames:v", "1"]
SOUND = ["-f", "lavfi", "-i", "sine=frequency=440:duration=0.5"]
# target, extension, MIME, ffmpeg arguments (None: written here), id3 switch byte
FORMATS = [
    ("png", "png", "image/png", PICTURE, None),
    ("riff", "webp", "image/webp", PICTURE + ["-c:v", "libwebp"], None),
    ("riff", "wav", "audio/wav", SOUND, None),
    ("riff", "avi", "video/avi", ["-f", "lavfi", "-i", "testsrc=size=64x48:rate=5", "-t", "0.4", "-c:v", "mjpeg"], None),
    ("tiff", "tif", "image/tiff", PICTURE, None),
    ("gif", "gif", "image/gif", PICTURE, None),
    ("svg", "svg", "image/svg+xml", None, None),
    ("jxl", "jxl", "image/jxl", PICTURE + ["-c:v", "libjxl", "-f", "image2"], None),
    ("id3", "mp3", "audio/mpeg", SOUND + ["-c:a", "libmp3lame"], b"\x00"),
    ("id3", "flac", "audio/flac", SOUND, b"\x01"),
    ("pdf", "pdf", "application/pdf", None, None),
]

SVG = b"""<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="64" height="48" viewBox="0 0 64 48">
  <!-- exhibit test picture -->
  <rect x="4" y="4" width="56" height="40" fill="#3a7"/>
</svg>
"""


def minimal_pdf():
    """PDFContainer.minimalDocument(): one page, a classic xref table."""
    content = b"0 0 1 rg 20 20 160 160 re f"
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R >>",
               b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content)]
    pdf = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, o in enumerate(objects):
        offsets.append(len(pdf))
        pdf += b"%d 0 obj\n%s\nendobj\n" % (i + 1, o)
    xref = len(pdf)
    pdf += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for o in offsets:
        pdf += b"%010d 00000 n \n" % o
    pdf += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(pdf)


def jxl_container(codestream):
    """JXLContainer.wrap(codestream:): signature box, ftyp, jxlc."""
    def box(t, payload):
        return (8 + len(payload)).to_bytes(4, "big") + t + payload
    return b"\x00\x00\x00\x0cJXL \r\n\x87\n" + box(b"ftyp", b"jxl \x00\x00\x00\x00jxl ") + box(b"jxlc", codestream)


def save(target, data):
    d = os.path.join(out, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, hashlib.sha1(data).hexdigest()), "wb") as f:
        f.write(data)


def main():
    work = tempfile.mkdtemp(prefix="exhibit-format-seeds-")
    specs, switch = [], {}
    for target, ext, mime, args, prefix in FORMATS:
        src = os.path.join(work, "sample." + ext)
        if ext == "svg":
            data = SVG
        elif ext == "pdf":
            data = minimal_pdf()
        else:
            raw = src + (".codestream" if ext == "jxl" else "")
            subprocess.run(["ffmpeg", "-v", "error", "-y", "-threads", "1", "-fflags", "+bitexact", "-flags", "+bitexact",
                            *args, raw], check=True)
            data = open(raw, "rb").read()
            if ext == "jxl":
                data = jxl_container(data)
        open(src, "wb").write(data)
        save(target, (prefix or b"") + data)
        for variant in ("embedded", "remote"):
            name = "%s-%s.%s" % (variant, ext, ext)
            specs.append("%s:%s:es256:%s%s" % (src, mime, name, ":remote" if variant == "remote" else ""))
            switch[name] = (target, prefix or b"")
    python = os.path.join(ROOT, ".venv", "bin", "python")
    signed = subprocess.run([python if os.path.exists(python) else sys.executable,
                             os.path.join(ROOT, "tests", "peers", "format_fixtures.py"), "sign",
                             os.path.join(work, "signed"), *specs], check=True, capture_output=True, text=True).stdout
    for f in json.loads(signed)["files"]:
        if "error" in f:
            print("make-format-seeds: c2pa-rs did not sign %s: %s" % (f["name"], f["error"]), file=sys.stderr)
            continue
        target, prefix = switch[f["name"]]
        save(target, prefix + open(f["path"], "rb").read())
    # inflate: zlib and raw deflate streams of text, zeros and noise (the kinds PDF streams carry)
    for payload in (minimal_pdf(), bytes(4096), hashlib.sha512(b"exhibit").digest() * 8):
        save("inflate", b"\x00" + zlib.compress(payload, 9))
        raw = zlib.compressobj(9, zlib.DEFLATED, -15)
        save("inflate", b"\x01" + raw.compress(payload) + raw.flush())
    subprocess.run(["rm", "-rf", work], check=True)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Check a verdicts.json against the catalogue in docs/interop.md.

    python3 tests/peers/check_verdicts.py OUTDIR

Every (kind, variant, trust config) row in verdicts.json must have exactly the
integrity, trust, timestamp and key failure listed here, and every row listed
here must be present. Exit 0 when all agree, 1 otherwise (each difference printed).
This pins what c2pa-rs says: if a c2pa-python upgrade changes a verdict, this
fails and docs/interop.md must be revisited.
"""

import json
import os
import sys

JPEG, FAST, LAST = "jpeg", "mp4-faststart", "mp4-moovlast"
MP4 = (FAST, LAST)
ALL = (JPEG,) + MP4

INTACT_TRUSTED = ("intact", "trusted", "trusted", None)
UNTRUSTED = "signingCredential.untrusted"

# (variants, kinds, trust config) -> (integrity, trust, timestamp, keyFailure)
CATALOGUE = [
    (["unsigned", "stripped"], ALL, "signer+tsa", ("unsigned", None, None, None)),
    (["trusted-es256"], ALL, "signer+tsa", ("intact", "trusted", "absent", None)),
    (["trusted-es256-tsa", "pad-flip"], ALL, "signer+tsa", INTACT_TRUSTED),
    (["trusted-es384-tsa", "trusted-es512-tsa", "trusted-ps256-tsa", "trusted-ed25519-tsa",
      "trusted-es256-thumbnail", "app11-en-flip", "app11-z-gap"], (JPEG,), "signer+tsa",
     INTACT_TRUSTED),
    (["ftyp-flip", "free-flip"], MP4, "signer+tsa", INTACT_TRUSTED),
    (["selfsigned", "untrusted-root"], ALL, "signer+tsa", ("intact", "untrusted", "absent", UNTRUSTED)),
    (["selfsigned-tsa", "untrusted-root-tsa"], (JPEG,), "signer+tsa",
     ("intact", "untrusted", "trusted", UNTRUSTED)),
    (["media-flip", "truncate-media"], (JPEG,), "signer+tsa",
     ("tampered", "trusted", "trusted", "assertion.dataHash.mismatch")),
    (["app11-duplicate"], (JPEG,), "signer+tsa",
     ("tampered", "trusted", "trusted", "assertion.dataHash.mismatch")),
    (["media-flip", "truncate-media", "moov-flip"], MP4, "signer+tsa",
     ("tampered", "trusted", "trusted", "assertion.bmffHash.mismatch")),
    (["claim-flip"], ALL, "signer+tsa", ("tampered", "trusted", "trusted", "claimSignature.mismatch")),
    (["signature-flip"], ALL, "signer+tsa", ("tampered", "trusted", "invalid", "claimSignature.mismatch")),
    (["certificate-flip"], ALL, "signer+tsa",
     ("tampered", "untrusted", "invalid", "claimSignature.mismatch")),
    (["assertion-flip", "hash-assertion-flip"], ALL, "signer+tsa",
     ("tampered", "trusted", "trusted", "assertion.hashedURI.mismatch")),
    (["timestamp-token-flip"], ALL, "signer+tsa", ("intact", "trusted", "untrusted", None)),
    (["timestamp-imprint-flip"], ALL, "signer+tsa", ("intact", "trusted", "invalid", None)),
    (["claim-cbor-garbage", "truncate-manifest"], ALL, "signer+tsa",
     ("malformed", None, None, "reader.error")),
    (["uuid-purpose-flip"], MP4, "signer+tsa", ("malformed", None, None, "reader.error")),
    (["app11-drop-last"], (JPEG,), "signer+tsa", ("malformed", None, None, "reader.error")),
    (["trusted-es256-tsa"], (JPEG,), "signer-only", ("intact", "trusted", "untrusted", None)),
    (["trusted-es256-tsa"], (JPEG,), "none", ("intact", "untrusted", "untrusted", UNTRUSTED)),
    (["selfsigned"], (JPEG,), "selfsigned-anchored", ("intact", "trusted", "absent", None)),
]


def expected():
    out = {}
    for variants, kinds, config, verdict in CATALOGUE:
        for v in variants:
            for k in kinds:
                out[(k, v, config)] = verdict
    return out


def check(outdir):
    doc = json.load(open(os.path.join(outdir, "verdicts.json")))
    want = expected()
    seen, problems = set(), []
    for r in doc["files"]:
        key = (r["kind"], r["variant"], r["trustConfig"])
        got = (r["integrity"], r["trust"], r["timestamp"], r["keyFailure"])
        seen.add(key)
        if key not in want:
            problems.append(f"not in the catalogue: {key} -> {got}")
        elif want[key] != got:
            problems.append(f"{key}: expected {want[key]}, c2pa-rs gave {got}")
        if r["variant"] == "stripped" and r.get("decodes") is not True:
            problems.append(f"{key}: stripped file does not decode cleanly")
    for key in sorted(set(want) - seen):
        problems.append(f"missing from verdicts.json: {key}")
    return problems


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    problems = check(argv[1])
    for p in problems:
        print(p)
    print(f"{'OK' if not problems else 'FAIL'}: {len(problems)} difference(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

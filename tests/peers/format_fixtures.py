#!/usr/bin/env python3
"""Files of every format c2pa-rs signs, signed by c2pa-rs, and c2pa-rs's verdict on any files.

    python3 tests/peers/format_fixtures.py sign OUTDIR SRC:MIME:ALG:NAME[:remote|:merkle=KB,PROOFS] ...
    python3 tests/peers/format_fixtures.py read ANCHORS_PEM FILE:MIME ...

`sign` builds the openssl test PKI of pki.py in OUTDIR/pki (signer root -> intermediate ->
leaves es256, es384, es512, ps256, ed25519), then signs each SRC (unsigned media of MIME type
MIME) with the c2pa-python Builder (thumbnails off; the manifest of docs/interop.md with a
c2pa.actions.v2 c2pa.created) with the leaf of ALG, into OUTDIR/NAME. With `:remote` the
manifest is not embedded: Builder.set_no_embed() + set_remote_url(URL), so the file carries
only the URL in its XMP. With `:merkle=KB,PROOFS` (ISO BMFF) the BMFF hash gets Merkle maps over
the mdat boxes in KB KiB blocks (settings core.merkle_tree_chunk_size_in_kb, and
core.merkle_tree_max_proofs = PROOFS: 0 stores the leaves, more writes `merkle` uuid boxes
with proofs). Prints one JSON document:
    {"anchors": OUTDIR/pki/signer-anchors.pem, "remoteURL": URL, "c2paRs": version,
     "files": [{"name", "path", "mime", "alg", "remote", "error"?}]}

`read` prints c2pa-rs's verdict on each FILE (read as MIME), trust anchors ANCHORS_PEM:
    {"files": [{"path", "mime", "state" ("Trusted"|"Valid"|"Invalid"|"error"), "failure",
      "success", "informational" (codes of the active manifest; failure also those of every
      ingredient delta), "error"?}]}

One process per phase, however many files (the Swift tests batch through it).
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import peerenv  # noqa: E402

peerenv.require()

import c2pa  # noqa: E402
import pki as pkimod  # noqa: E402

REMOTE_URL = "https://manifests.example.invalid/c2pa/exhibit-formats-1.c2pa"
MANIFEST = {
    "claim_generator_info": [{"name": "exhibit-archive-peers", "version": "1.0"}],
    "title": "exhibit-format-fixture",
    "assertions": [
        {"label": "c2pa.actions.v2",
         "data": {"actions": [{"action": "c2pa.created",
                               "digitalSourceType":
                               "http://cv.iptc.org/newscodes/digitalsourcetype/digitalCapture"}]}},
    ],
}


def sign(outdir, specs):
    os.makedirs(outdir, exist_ok=True)
    roles = pkimod.build(os.path.join(outdir, "pki"))
    files = []
    for spec in specs:
        parts = spec.split(":")
        src, mime, alg, name = parts[0], parts[1], parts[2], parts[3]
        option = parts[4] if len(parts) > 4 else ""
        remote = option == "remote"
        settings = {"builder": {"thumbnail": {"enabled": False}}}
        if option.startswith("merkle="):
            kb, proofs = option[len("merkle="):].split(",")
            settings["core"] = {"merkle_tree_chunk_size_in_kb": int(kb), "merkle_tree_max_proofs": int(proofs)}
        ctx = c2pa.Context.from_dict(settings)
        leaf = roles[alg]
        entry = {"name": name, "path": os.path.join(outdir, name), "mime": mime, "alg": alg, "remote": remote}
        signer = c2pa.Signer.from_info(c2pa.C2paSignerInfo(alg.encode(), leaf.chain_pem(), leaf.key_pem(), None))
        builder = c2pa.Builder(MANIFEST, ctx)
        try:
            if remote:
                builder.set_no_embed()
                builder.set_remote_url(REMOTE_URL)
            with open(src, "rb") as i, open(entry["path"], "w+b") as o:
                builder.sign(signer, mime, i, o)
        except Exception as e:  # noqa: BLE001 - reported, the Swift test decides
            entry["error"] = f"{type(e).__name__}: {e}"
        finally:
            signer.close()
            builder.close()
        files.append(entry)
    print(json.dumps({"anchors": os.path.join(outdir, "pki", "signer-anchors.pem"), "remoteURL": REMOTE_URL,
                      "c2paRs": c2pa.sdk_version() if hasattr(c2pa, "sdk_version") else None, "files": files}))


def read(anchors, specs):
    ctx = c2pa.Context.from_dict({
        "trust": {"trust_anchors": open(anchors).read()},
        "verify": {"verify_trust": True, "verify_timestamp_trust": True, "ocsp_fetch": False,
                   "remote_manifest_fetch": False},
    })
    out = []
    for spec in specs:
        path, mime = spec.rsplit(":", 1)
        entry = {"path": path, "mime": mime}
        try:
            with open(path, "rb") as f:
                r = c2pa.Reader(mime, f, None, ctx)
                try:
                    vr = r.get_validation_results() or {}
                    am = vr.get("activeManifest", {})
                    failure = [x["code"] for x in am.get("failure", [])]
                    for d in vr.get("ingredientDeltas") or []:
                        failure += [x["code"] for x in d.get("validationDeltas", {}).get("failure", [])]
                    entry.update({"state": r.get_validation_state(), "failure": failure,
                                  "success": [x["code"] for x in am.get("success", [])],
                                  "informational": [x["code"] for x in am.get("informational", [])]})
                finally:
                    r.close()
        except Exception as e:  # noqa: BLE001 - an unreadable file is a verdict too
            entry.update({"state": "error", "failure": [], "success": [], "informational": [],
                          "error": f"{type(e).__name__}: {e}"})
        out.append(entry)
    print(json.dumps({"files": out}))


def main(argv):
    if len(argv) < 3 or argv[1] not in ("sign", "read"):
        print(__doc__, file=sys.stderr)
        return 2
    if argv[1] == "sign":
        sign(argv[2], argv[3:])
    else:
        read(argv[2], argv[3:])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

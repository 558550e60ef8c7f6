#!/usr/bin/env python3
"""Ask c2pa-rs (via c2pa-python) for its verdict on files; one JSON object per line.

    python3 tests/peers/c2pa_read.py FILE... [--trust PEM] [--tsa-trust PEM]
                                     [--mime TYPE] [--full]

Each line: {"file", "mime", "validationState", "integrity", "trust", "timestamp",
"keyFailure", "failureCodes", "informationalCodes", "successCodes", "claimVersion",
"signature", "error"?}; with --full also "statusCodes" (code, url, explanation).
`integrity` is intact | tampered | unsigned | malformed, `trust` trusted | untrusted
(None when there is no readable manifest); see verdict.py and docs/interop.md.

c2pa-rs keeps a single anchor list, so --trust and --tsa-trust are concatenated
into trust.trust_anchors. Without any anchor every signer reads as untrusted.
Exit status: 0 when every file was read (whatever the verdict), 2 on bad usage.
"""

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import peerenv  # noqa: E402

peerenv.require()

import verdict  # noqa: E402


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--trust", action="append", default=[], help="signer anchor PEM bundle")
    ap.add_argument("--tsa-trust", action="append", default=[], help="TSA anchor PEM bundle")
    ap.add_argument("--mime", help="MIME type for every file (default: from the extension)")
    ap.add_argument("--full", action="store_true", help="include urls and explanations")
    args = ap.parse_args(argv[1:])
    for p in args.trust + args.tsa_trust:
        if not os.path.isfile(p):
            ap.error(f"no such anchor file: {p}")
    ctx = verdict.make_context(args.trust + args.tsa_trust)
    for path in args.files:
        v = verdict.read(path, ctx, args.mime)
        sc = v["statusCodes"]
        line = {
            "file": path, "mime": v["mime"], "validationState": v["validationState"],
            "integrity": v["integrity"], "trust": v["trust"], "timestamp": v["timestamp"],
            "keyFailure": v["keyFailure"],
            "failureCodes": [x["code"] for x in sc["failure"]],
            "informationalCodes": [x["code"] for x in sc["informational"]],
            "successCodes": sorted({x["code"] for x in sc["success"]}),
            "claimVersion": v.get("claimVersion"),
            "signature": v.get("signature"),
        }
        if "error" in v:
            line["error"] = v["error"]
        if args.full:
            line["statusCodes"] = sc
        print(json.dumps(line), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

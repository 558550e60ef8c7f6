/// The Python peer (cbor2, hashlib, hmac only), kept as text so SwiftPM sees no stray file.
enum PeerSource {
    static let text = #"""
"""Independent peer for CaptureFormat tests: cbor2, hashlib and hmac only.

Reads one JSON request on stdin, writes one JSON answer on stdout. Nothing here imports the
Swift code's logic; every value is computed from the written format (docs/capture-format.md).
"""
import hashlib
import hmac
import json
import sys

import cbor2


def sha(b):
    return hashlib.sha256(b).digest()


def hkdf_sha256(ikm, salt, info, length):
    # RFC 5869: an empty salt means HashLen zero bytes.
    prk = hmac.new(salt if salt else b"\x00" * 32, ikm, hashlib.sha256).digest()
    out, t, i = b"", b"", 1
    while len(out) < length:
        t = hmac.new(prk, t + info + bytes([i]), hashlib.sha256).digest()
        out += t
        i += 1
    return out[:length]


def merkle_root(leaves):
    if not leaves:
        return sha(b"")
    level = list(leaves)
    while len(level) > 1:
        nxt = [sha(level[i] + level[i + 1]) for i in range(0, len(level) - 1, 2)]
        if len(level) % 2:
            nxt.append(level[-1])
        level = nxt
    return level[0]


def canonical_claim(cid, rung, value):
    return cbor2.dumps({"claimId": cid, "rung": rung, "value": value}, canonical=True)


def salt(seed, cid, rung):
    return hkdf_sha256(seed, b"", b"exhibit-leaf-v1" + cid.encode() + rung.to_bytes(4, "big"), 32)


def pattern(n, mul, add):
    return bytes(((i * mul + add) & 0xFF) for i in range(n))


def to_jsonable(x):
    if isinstance(x, bytes):
        return {"$bytes": x.hex()}
    if isinstance(x, dict):
        return {str(k): to_jsonable(v) for k, v in x.items()}
    if isinstance(x, list):
        return [to_jsonable(v) for v in x]
    return x


def main():
    req = json.load(sys.stdin)
    out = {}
    # Re-encode CBOR canonically and expose the decoded structure.
    out["canon"] = []
    for h in req.get("canon", []):
        obj = cbor2.loads(bytes.fromhex(h))
        out["canon"].append({"canonical": cbor2.dumps(obj, canonical=True).hex(), "decoded": to_jsonable(obj)})
    # Encode objects (JSON given, floats stay floats) canonically.
    out["encode"] = [cbor2.dumps(o, canonical=True).hex() for o in req.get("encode", [])]
    out["claims"] = [canonical_claim(c, r, v).hex() for c, r, v in req.get("claims", [])]
    out["salts"] = [salt(bytes.fromhex(s), c, r).hex() for s, c, r in req.get("salts", [])]
    out["leaves"] = [sha(b"leaf-v1" + canonical_claim(c, r, v) + bytes.fromhex(s)).hex() for c, r, v, s in req.get("leaves", [])]
    out["inventory"] = []
    for entries in req.get("inventory", []):
        arr = [{"claimId": c, "rung": r} for c, r in sorted(entries, key=lambda e: e[0].encode())]
        out["inventory"].append(sha(b"inventory-v1" + cbor2.dumps(arr, canonical=True)).hex())
    out["merkle"] = [merkle_root([bytes.fromhex(h) for h in leaves]).hex() for leaves in req.get("merkle", [])]
    out["chunks"] = []
    for c in req.get("chunks", []):
        data = pattern(c["length"], c["mul"], c["add"])
        size = c["chunkSize"]
        hashes = []
        for idx, off in enumerate(range(0, len(data), size)):
            hashes.append(sha(c["track"].encode() + idx.to_bytes(8, "big") + data[off:off + size]).hex())
        out["chunks"].append(hashes)
    out["ring"] = []
    for frames in req.get("ring", []):
        listing = b"".join(d.encode() + b"  " + n.encode() + b"\n" for n, d in sorted(frames, key=lambda f: f[0].encode()))
        out["ring"].append(sha(listing).hex())
    json.dump(out, sys.stdout)


main()
"""#
}

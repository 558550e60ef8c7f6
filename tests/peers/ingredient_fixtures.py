#!/usr/bin/env python3
"""Ingredient fixtures: a parent signed by c2pa-rs with a signed ingredient, tampered, judged.

    python3 tests/peers/ingredient_fixtures.py OUTDIR CHAIN_PEM KEY_PEM ANCHORS_PEM JPEG MP4 \
            [OTHER_CHAIN_PEM OTHER_KEY_PEM]

CHAIN_PEM/KEY_PEM: an ES256 signer (leaf first); ANCHORS_PEM: the trust anchors given
to c2pa-rs both when the ingredient is added (its validation results are recorded in
the ingredient assertion) and when the files are read. JPEG/MP4: unsigned media.

Makes (c2pa-python Builder, thumbnails off so each store fits one APP11 segment):
    child.jpg        JPEG signed by c2pa-rs (the ingredient)
    parent.jpg       JPEG signed with child.jpg added as a parentOf ingredient
                     (c2pa.ingredient.v3 with activeManifest, claimSignature, validationResults;
                     child's manifest copied into the parent's store)
    parent.mp4       MP4 signed with child.jpg as a componentOf ingredient
    nested.parent.jpg  a parent of a child that has child.jpg's own source as ingredient
                     (three manifests: grandchild, child, parent), and
    nested-grandchild-signature-flip.parent.jpg  the grandchild's signature flipped
    untrusted-ingredient.parent.jpg   (with OTHER_*) a parent whose ingredient is signed by a
                     signer outside ANCHORS: the ingredient assertion records
                     signingCredential.untrusted, so reading it again is no delta
and tampered copies of parent.jpg / parent.mp4 (see TAMPERS). Prints one JSON document:
    {"files": [{"name", "mime", "description", "state", "failure": [codes of the active
      manifest and of every ingredient delta], "success": [...], "informational": [...],
      "activeFailure": [...], "deltaFailure": [...], "error"?}], "ingredientLabel", "c2paRs"}
c2pa-rs reports an ingredient's codes as "ingredientDeltas": what differs from the
validation results recorded in the ingredient assertion (docs/verify.md, Ingredients).
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import peerenv  # noqa: E402

peerenv.require()

import cbor2  # noqa: E402

import c2pa  # noqa: E402
import containers as ct  # noqa: E402

CREATED = {"action": "c2pa.created",
           "digitalSourceType": "http://cv.iptc.org/newscodes/digitalsourcetype/digitalCapture"}


def context(anchors):
    return c2pa.Context.from_dict({
        "builder": {"thumbnail": {"enabled": False}},
        "verify": {"verify_trust": True, "ocsp_fetch": False, "remote_manifest_fetch": False},
        "trust": {"trust_anchors": anchors}})


def sign(ctx, chain, key, manifest, mime, src, dst, ingredient=None):
    signer = c2pa.Signer.from_info(c2pa.C2paSignerInfo(b"es256", chain, key, None))
    b = c2pa.Builder(manifest, ctx)
    try:
        if ingredient:
            path, imime, rel = ingredient
            with open(path, "rb") as f:
                b.add_ingredient({"title": os.path.basename(path), "relationship": rel,
                                  "label": "ingredient-1"}, imime, f)
        with open(src, "rb") as s, open(dst, "w+b") as d:
            b.sign(signer, mime, s, d)
    finally:
        signer.close()
        b.close()


def manifest(title, action):
    return {"claim_generator_info": [{"name": "exhibit-ingredient-peer", "version": "1"}],
            "title": title,
            "assertions": [{"label": "c2pa.actions.v2", "data": {"actions": [action]}}]}


class Store:
    """The parent's store: its ingredient manifest (first) and active manifest (last)."""

    def __init__(self, data, mime):
        self.data = data
        if mime == "image/jpeg":
            self.bytes, runs, _ = ct.jpeg_c2pa_store(data)
            self.to_file = lambda off: ct.map_store_offset(runs, off)
        else:
            box, _p, _m, jo = ct.bmff_c2pa_box(data)
            self.bytes = data[jo:box.end]
            self.to_file = lambda off: jo + off
        root = ct.parse_jumbf(self.bytes)
        if len(root.children) < 2:
            raise SystemExit("the parent's store holds no ingredient manifest")
        self.ingredient = root.children[0]
        self.active = root.children[-1]

    def content(self, manifest, *labels):
        box = manifest
        for lab in labels:
            box = box.find(lab)
            if box is None:
                raise SystemExit(f"no JUMBF box {'/'.join(labels)}")
        c = box.content()
        return c.payload_offset, self.bytes[c.payload_offset:c.end]

    def at(self, manifest, labels, needle, nth=0):
        off, blob = self.content(manifest, *labels)
        i = blob.find(needle)
        if i < 0:
            raise SystemExit(f"{needle[:16]!r} not in {'/'.join(labels)}")
        return self.to_file(off + i + nth)

    def claim_label(self, manifest):
        return next(c.label for c in manifest.children if c.label in ("c2pa.claim", "c2pa.claim.v2"))

    def ingredient_assertion(self):
        a = self.active.find("c2pa.assertions")
        return next(c.label for c in a.children if c.label and c.label.startswith("c2pa.ingredient"))


def flip(data, i, mask=0x01):
    b = bytearray(data)
    b[i] ^= mask
    return bytes(b)


def t_claim(s):
    i = s.at(s.ingredient, [s.claim_label(s.ingredient)], b"xmp.iid:", nth=len(b"xmp.iid:"))
    return flip(s.data, i), "ingredient claim CBOR: first character of its instanceID's UUID"


def t_signature(s):
    _o, blob = s.content(s.ingredient, "c2pa.signature")
    sig = cbor2.loads(blob).value[3]
    i = s.at(s.ingredient, ["c2pa.signature"], sig, nth=len(sig) - 1)
    return flip(s.data, i), "last byte of the ingredient's COSE_Sign1 signature"


def t_assertion(s):
    i = s.at(s.ingredient, ["c2pa.assertions", "c2pa.actions.v2"], b"digitalCapture")
    return flip(s.data, i), "ingredient's own c2pa.actions.v2 (a text character)"


def t_hashed_uri(s):
    label = s.ingredient_assertion()
    _o, blob = s.content(s.active, "c2pa.assertions", label)
    ref = cbor2.loads(blob)
    h = (ref.get("activeManifest") or ref.get("c2pa_manifest"))["hash"]
    i = s.at(s.active, ["c2pa.assertions", label], h)
    return flip(s.data, i), f"parent's {label}: first byte of the activeManifest hash"


def t_missing(s):
    # Rename the ingredient manifest (its jumd label, one hex digit of the UUID changed,
    # same length): the store no longer holds a manifest with the referenced label.
    desc = s.ingredient.desc
    raw = s.bytes[desc.offset:desc.end]
    label = s.ingredient.label.encode()
    k = raw.find(label) + len(label) - 1          # last hex digit of the UUID
    old = raw[k:k + 1]
    new = b"0" if old != b"0" else b"1"
    i = s.to_file(desc.offset + k)
    b = bytearray(s.data)
    b[i] = new[0]
    return bytes(b), "ingredient manifest's label changed (last UUID digit): the reference finds no manifest"


TAMPERS = [("ingredient-claim-flip", t_claim), ("ingredient-signature-flip", t_signature),
           ("ingredient-assertion-flip", t_assertion), ("ingredient-hasheduri-flip", t_hashed_uri),
           ("ingredient-manifest-missing", t_missing)]
MP4_TAMPERS = ("ingredient-signature-flip", "ingredient-manifest-missing")


def codes(items):
    return [x["code"] for x in items or []]


def verdict(path, mime, ctx):
    try:
        with open(path, "rb") as f:
            r = c2pa.Reader(mime, f, context=ctx)
            try:
                state = r.get_validation_state()
                res = r.get_validation_results() or {}
            finally:
                r.close()
    except Exception as e:
        return {"state": "error", "error": f"{type(e).__name__}: {e}", "failure": [], "success": [],
                "informational": [], "activeFailure": [], "deltaFailure": []}
    am = res.get("activeManifest", {})
    deltas = [d.get("validationDeltas", {}) for d in res.get("ingredientDeltas") or []]
    out = {"state": state, "activeFailure": codes(am.get("failure")),
           "deltaFailure": [c for d in deltas for c in codes(d.get("failure"))]}
    for k in ("success", "informational", "failure"):
        out[k] = codes(am.get(k)) + [c for d in deltas for c in codes(d.get(k))]
    return out


def main(argv):
    if len(argv) not in (7, 9):
        print(__doc__, file=sys.stderr)
        return 2
    out, chain_p, key_p, anchors_p, jpeg, mp4 = argv[1:7]
    os.makedirs(out, exist_ok=True)
    chain, key = open(chain_p, "rb").read(), open(key_p, "rb").read()
    ctx = context(open(anchors_p).read())
    child = os.path.join(out, "child.jpg")
    sign(ctx, chain, key, manifest("child", CREATED), "image/jpeg", jpeg, child)
    opened = {"action": "c2pa.opened", "parameters": {"ingredientIds": ["ingredient-1"]}}
    placed = {"action": "c2pa.placed", "parameters": {"ingredientIds": ["ingredient-1"]}}
    parents = [("parent.jpg", "image/jpeg", child, manifest("parent", opened), "parentOf"),
               ("parent.mp4", "video/mp4", mp4,
                manifest("parent-video", CREATED),
                "componentOf")]
    files = []
    for name, mime, src, m, rel in parents:
        if rel == "componentOf":
            m["assertions"][0]["data"]["actions"].append(placed)
        path = os.path.join(out, name)
        sign(ctx, chain, key, m, mime, src, path, ingredient=(child, "image/jpeg", rel))
        files.append((name, mime, "intact parent with a signed ingredient"))
        s = Store(open(path, "rb").read(), mime)
        for tname, fn in TAMPERS:
            if mime == "video/mp4" and tname not in MP4_TAMPERS:
                continue
            data, desc = fn(s)
            tpath = os.path.join(out, f"{tname}.{name}")
            open(tpath, "wb").write(data)
            files.append((os.path.basename(tpath), mime, desc))
    # Two levels: grandchild (signed plain JPEG) -> child -> parent.
    grand = os.path.join(out, "grandchild.jpg")
    middle = os.path.join(out, "nested-child.jpg")
    sign(ctx, chain, key, manifest("grandchild", CREATED), "image/jpeg", jpeg, grand)
    sign(ctx, chain, key, manifest("nested-child", opened), "image/jpeg", grand, middle,
         ingredient=(grand, "image/jpeg", "parentOf"))
    nested = os.path.join(out, "nested.parent.jpg")
    sign(ctx, chain, key, manifest("parent", opened), "image/jpeg", middle, nested,
         ingredient=(middle, "image/jpeg", "parentOf"))
    files.append(("nested.parent.jpg", "image/jpeg", "parent -> child -> grandchild, all signed"))
    data, _ = t_signature(Store(open(nested, "rb").read(), "image/jpeg"))   # the store's first: grandchild
    open(os.path.join(out, "nested-grandchild-signature-flip.parent.jpg"), "wb").write(data)
    files.append(("nested-grandchild-signature-flip.parent.jpg", "image/jpeg",
                  "last byte of the grandchild's COSE_Sign1 signature (two levels down)"))
    if len(argv) == 9:
        other = os.path.join(out, "child-untrusted.jpg")
        sign(ctx, open(argv[7], "rb").read(), open(argv[8], "rb").read(), manifest("child-untrusted", CREATED),
             "image/jpeg", jpeg, other)
        sign(ctx, chain, key, manifest("parent", opened), "image/jpeg", other,
             os.path.join(out, "untrusted-ingredient.parent.jpg"), ingredient=(other, "image/jpeg", "parentOf"))
        files.append(("untrusted-ingredient.parent.jpg", "image/jpeg",
                      "ingredient signed outside the anchors (recorded as such in the ingredient assertion)"))
    report = []
    for name, mime, desc in files:
        v = verdict(os.path.join(out, name), mime, ctx)
        v.update({"name": name, "mime": mime, "description": desc})
        report.append(v)
    s = Store(open(os.path.join(out, "parent.jpg"), "rb").read(), "image/jpeg")
    print(json.dumps({"files": report, "ingredientLabel": s.ingredient.label, "c2paRs": c2pa.sdk_version()}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

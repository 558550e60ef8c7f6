"""Read a file with c2pa-python (c2pa-rs) and roll its status codes up into a verdict.

API used (c2pa-python 0.38, c2pa-rs 0.91):
    settings = {"trust": {"trust_anchors": PEM_BUNDLE},
                "verify": {"verify_trust": True, "verify_timestamp_trust": True}}
    ctx = c2pa.Context.from_dict(settings)
    reader = c2pa.Reader(mime, stream, None, ctx)
    reader.get_validation_state()    -> "Invalid" | "Valid" | "Trusted"
    reader.get_validation_results()  -> {"activeManifest": {"success": [...],
                                         "informational": [...], "failure": [...]}, ...}
c2pa-rs has ONE anchor list for signers and TSAs, so the signer and TSA anchors
are concatenated into trust.trust_anchors.

Summary fields:
    integrity: intact | tampered | unsigned | malformed
    trust:     trusted | untrusted | None (unsigned / malformed)
    timestamp: trusted | untrusted | invalid | absent | None
    keyFailure: the most significant failure code (None when there is none)
"""

import json
import os

import c2pa

# Failure codes that concern only trust or time, never the byte-math.
TRUST_PREFIXES = ("signingCredential.",)
TIME_PREFIXES = ("timeStamp.",)
# CAWG identity-assertion failures that leave c2pa-rs's validationState `Valid` (the assertion
# is scoped out, not the manifest): every `cawg.identity.*` and `cawg.x509.*` code. Identity
# claims aggregation failures (`cawg.ica.*`) make the state `Invalid` and count as tampered.
CAWG_TOLERATED_PREFIXES = ("cawg.identity.", "cawg.x509.")
# Failure codes that say the manifest could not be read as a manifest.
MALFORMED_CODES = {
    "claim.malformed", "claim.cbor.invalid", "claim.missing", "claimSignature.missing",
    "assertion.cbor.invalid", "assertion.json.invalid", "manifest.missing",
    "manifest.multipleParents", "general.error", "algorithm.unsupported",
}
# Errors that mean "no manifest in this asset".
UNSIGNED_ERRORS = ("ManifestNotFound", "JumbfNotFound", "no JUMBF data found",
                   # A remote manifest (XMP dcterms:provenance) with fetching disabled: no
                   # embedded store, which our verifier reports as unsigned + manifest.inaccessible.
                   "must fetch remote manifests")

_PRIORITY = [
    lambda c: c in MALFORMED_CODES,
    lambda c: c.startswith("claimSignature."),
    lambda c: c.startswith("assertion."),
    lambda c: c.startswith("signingCredential."),
    lambda c: c.startswith("timeStamp."),
    lambda c: True,
]

MIME = {".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".mp4": "video/mp4", ".m4v": "video/mp4",
        ".mov": "video/quicktime", ".png": "image/png", ".c2pa": "application/c2pa",
        ".m4a": "audio/mp4", ".heic": "image/heic", ".heif": "image/heif", ".avif": "image/avif",
        ".m4s": "video/mp4", ".webp": "image/webp", ".wav": "audio/wav", ".avi": "video/avi",
        ".tif": "image/tiff", ".tiff": "image/tiff", ".dng": "image/x-adobe-dng", ".gif": "image/gif",
        ".svg": "image/svg+xml", ".jxl": "image/jxl", ".mp3": "audio/mpeg", ".flac": "audio/flac",
        ".pdf": "application/pdf"}


def make_context(trust_pems=(), verify_trust=True):
    anchors = "".join(open(p).read() for p in trust_pems if p)
    settings = {"verify": {"verify_trust": verify_trust,
                           "verify_timestamp_trust": verify_trust,
                           "ocsp_fetch": False, "remote_manifest_fetch": False},
                "builder": {"thumbnail": {"enabled": False}}}
    if anchors:
        settings["trust"] = {"trust_anchors": anchors}
    return c2pa.Context.from_dict(settings)


def _codes(items):
    return [{"code": i.get("code"), "url": i.get("url"), "explanation": i.get("explanation")}
            for i in items or []]


def key_failure(failures):
    codes = [f["code"] for f in failures]
    for rule in _PRIORITY:
        for c in codes:
            if rule(c):
                return c
    return None


def summarize(success, informational, failure):
    s = {x["code"] for x in success}
    i = {x["code"] for x in informational}
    f = [x["code"] for x in failure]
    byte_failures = [c for c in f if not c.startswith(TRUST_PREFIXES + TIME_PREFIXES + CAWG_TOLERATED_PREFIXES)]
    if any(c in MALFORMED_CODES for c in f):
        integrity = "malformed"
    elif byte_failures:
        integrity = "tampered"
    else:
        integrity = "intact"
    trusted = "signingCredential.trusted" in s and not any(c.startswith(TRUST_PREFIXES) for c in f)
    all_codes = s | i | set(f)
    if "timeStamp.trusted" in s:
        ts = "trusted"
    elif any(c in all_codes for c in ("timeStamp.mismatch", "timeStamp.malformed",
                                      "timeStamp.outsideValidity")):
        ts = "invalid"
    elif "timeStamp.untrusted" in all_codes or "timeStamp.validated" in s:
        ts = "untrusted"
    else:
        ts = "absent"
    return integrity, ("trusted" if trusted else "untrusted"), ts


def read(path, context, mime=None):
    """Return a JSON-ready dict for one file."""
    ext = os.path.splitext(path)[1].lower()
    mime = mime or MIME.get(ext)
    out = {"file": path, "mime": mime}
    if not os.path.isfile(path):
        out.update({"validationState": None, "error": "file not found", "integrity": None,
                    "trust": None, "timestamp": None, "keyFailure": "io.notFound",
                    "statusCodes": {"success": [], "informational": [], "failure": []}})
        return out
    try:
        with open(path, "rb") as fh:
            reader = c2pa.Reader(mime, fh, None, context)
            try:
                state = reader.get_validation_state()
                results = reader.get_validation_results() or {}
                try:
                    active = reader.get_active_manifest() or {}
                except KeyError:
                    # The active manifest failed to load (c2pa-rs logs "Failed to load
                    # manifest" among the results, e.g. a cawg.identity assertion that does
                    # not deserialize): the results still stand.
                    active = {}
                store = json.loads(reader.json())
            finally:
                reader.close()
    except Exception as e:  # c2pa.C2paError subclasses and I/O errors alike
        msg = f"{type(e).__name__}: {e}"
        unsigned = any(tok in msg for tok in UNSIGNED_ERRORS)
        out.update({"validationState": None, "error": msg,
                    "integrity": "unsigned" if unsigned else "malformed",
                    "trust": None, "timestamp": None,
                    "keyFailure": None if unsigned else "reader.error",
                    "statusCodes": {"success": [], "informational": [], "failure": []}})
        return out
    am = results.get("activeManifest", {})
    success = _codes(am.get("success"))
    informational = _codes(am.get("informational"))
    failure = _codes(am.get("failure"))
    integrity, trust, ts = summarize(success, informational, failure)
    sig = active.get("signature_info") or {}
    out.update({
        "validationState": state,
        "integrity": integrity,
        "trust": trust,
        "timestamp": ts,
        "keyFailure": key_failure(failure),
        "statusCodes": {"success": success, "informational": informational, "failure": failure},
        "ingredientDeltas": results.get("ingredientDeltas") or [],
        "activeManifest": store.get("active_manifest"),
        "claimVersion": active.get("claim_version"),
        "signature": {k: sig.get(k) for k in ("alg", "issuer", "common_name", "cert_serial_number", "time")},
        "assertions": [a.get("label") for a in active.get("assertions", [])],
    })
    # Codes reported outside the active manifest's lists (store-level) — kept verbatim.
    if results.get("validation_status"):
        out["storeStatus"] = results["validation_status"]
    vs = store.get("validation_status")
    if vs:
        out["storeValidationStatus"] = [x.get("code") for x in vs]
    return out

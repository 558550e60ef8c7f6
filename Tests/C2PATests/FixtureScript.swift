/// The Python peer script (c2pa-python = c2pa-rs, cbor2, cryptography) the tests run. Kept as a
/// Swift string so the test target holds no unhandled resource files.
///
///     python make_fixtures.py OUTDIR            signed.jpg / signed.mp4 / signed_ingredient.jpg + verdicts
///     python make_fixtures.py sign KEY          stdin message -> raw r||s ES256 signature
///     python make_fixtures.py verify CHAIN MSG SIG
///     python make_fixtures.py read PATH MIME    c2pa.Reader detailed JSON + validation_state
let fixtureScript = #"""
"""Makes real C2PA-signed inputs for the C2PA parser tests with c2pa-python (c2pa-rs).

usage: python make_fixtures.py OUTDIR
Writes into OUTDIR: ca.pem, chain.pem (leaf + CA), leaf.key, in.jpg/in.mp4 (unsigned),
signed.jpg, signed.mp4, signed_ingredient.jpg (two manifests), and *.json verdicts from
c2pa.Reader (detailed), so the Swift tests compare against the reference implementation.
"""
import datetime, io, json, os, subprocess, sys

import c2pa
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

if sys.argv[1] == "sign":  # sign KEY: stdin = message, stdout = raw r||s (ES256)
    from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature
    key = serialization.load_pem_private_key(open(sys.argv[2], "rb").read(), None)
    r, s = decode_dss_signature(key.sign(sys.stdin.buffer.read(), ec.ECDSA(hashes.SHA256())))
    sys.stdout.buffer.write(r.to_bytes(32, "big") + s.to_bytes(32, "big"))
    sys.exit(0)
if sys.argv[1] == "verify":  # verify CHAIN_PEM MSG_FILE RAW_SIG_FILE: exit 0 when the leaf's key verifies
    from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
    leaf = x509.load_pem_x509_certificates(open(sys.argv[2], "rb").read())[0]
    raw = open(sys.argv[4], "rb").read()
    sig = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    leaf.public_key().verify(sig, open(sys.argv[3], "rb").read(), ec.ECDSA(hashes.SHA256()))
    print("verified")
    sys.exit(0)
if sys.argv[1] == "read":  # read PATH MIME: prints c2pa.Reader's detailed JSON plus validation_state
    with open(sys.argv[2], "rb") as f:
        r = c2pa.Reader(sys.argv[3], f)
        d = json.loads(r.detailed_json())
        d["validation_state"] = r.get_validation_state()
        print(json.dumps(d))
    sys.exit(0)
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
now = datetime.datetime.now(datetime.timezone.utc)


def name(cn):
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn),
                      x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Exhibit Test")])


ca_key = ec.generate_private_key(ec.SECP256R1())
ca = (x509.CertificateBuilder().subject_name(name("Exhibit Test CA")).issuer_name(name("Exhibit Test CA"))
      .public_key(ca_key.public_key()).serial_number(x509.random_serial_number())
      .not_valid_before(now - datetime.timedelta(days=1)).not_valid_after(now + datetime.timedelta(days=365))
      .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
      .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
      .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
      .sign(ca_key, hashes.SHA256()))
leaf_key = ec.generate_private_key(ec.SECP256R1())
leaf = (x509.CertificateBuilder().subject_name(name("Exhibit Test Signer")).issuer_name(ca.subject)
        .public_key(leaf_key.public_key()).serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1)).not_valid_after(now + datetime.timedelta(days=365))
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.KeyUsage(True, False, False, False, False, False, False, False, False), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.EMAIL_PROTECTION]), critical=False)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(leaf_key.public_key()), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
        .sign(ca_key, hashes.SHA256()))
pem = lambda c: c.public_bytes(serialization.Encoding.PEM)
chain = pem(leaf) + pem(ca)
key_pem = leaf_key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                 serialization.NoEncryption())
open(os.path.join(out, "ca.pem"), "wb").write(pem(ca))
open(os.path.join(out, "chain.pem"), "wb").write(chain)
open(os.path.join(out, "leaf.key"), "wb").write(key_pem)

jpg = os.path.join(out, "in.jpg")
mp4 = os.path.join(out, "in.mp4")
subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=1",
                "-frames:v", "1", jpg], check=True)
subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=25",
                "-f", "lavfi", "-i", "sine", "-t", "2", "-c:v", "libx264", "-c:a", "aac", mp4], check=True)


def signer():
    info = c2pa.C2paSignerInfo(b"es256", chain, key_pem, None)
    return c2pa.Signer.from_info(info)


def manifest(title):
    return {"claim_generator_info": [{"name": "exhibit-fixtures", "version": "1.0"}],
            "title": title,
            "assertions": [{"label": "c2pa.actions.v2", "data": {"actions": [
                {"action": "c2pa.created",
                 "digitalSourceType": "http://cv.iptc.org/newscodes/digitalsourcetype/digitalCapture"}]}}]}


def sign(src, dst, fmt, title, ingredient=None):
    b = c2pa.Builder(manifest(title))
    if ingredient:
        with open(ingredient, "rb") as f:
            b.add_ingredient({"title": "parent", "relationship": "parentOf"}, fmt, f)
    with open(src, "rb") as s, open(dst, "w+b") as d:
        b.sign(signer(), fmt, s, d)


def verdict(path, fmt):
    with open(path, "rb") as f:
        r = c2pa.Reader(fmt, f)
        return json.loads(r.detailed_json())


sign(jpg, os.path.join(out, "signed.jpg"), "image/jpeg", "signed.jpg")
sign(mp4, os.path.join(out, "signed.mp4"), "video/mp4", "signed.mp4")
sign(os.path.join(out, "signed.jpg"), os.path.join(out, "signed_ingredient.jpg"), "image/jpeg",
     "signed_ingredient.jpg", ingredient=os.path.join(out, "signed.jpg"))
for n, fmt in [("signed.jpg", "image/jpeg"), ("signed.mp4", "video/mp4"), ("signed_ingredient.jpg", "image/jpeg")]:
    json.dump(verdict(os.path.join(out, n), fmt), open(os.path.join(out, n + ".json"), "w"), indent=1)
print("ok")
"""#

"""Test PKI for the c2pa-rs interop fixtures, built with the `openssl` CLI.

Layout (every certificate X.509 v3, validity from 2025-01-01 for ten years):

    signer root (EC P-256, CA)            -> signer-anchors.pem
      signer intermediate (EC P-256, CA, pathlen 0)
        leaf-es256 / leaf-es384 / leaf-es512 / leaf-ps256 / leaf-ed25519  (CA:false)
    untrusted root (EC P-256, CA)         -> never an anchor
      untrusted intermediate
        leaf-untrusted-es256
    self-signed leaf (EC P-256, CA:false, issuer == subject)
    TSA root (EC P-256, CA)               -> tsa-anchors.pem
      TSA leaf (EC P-256, EKU timeStamping critical)

Leaves carry keyUsage digitalSignature (critical), EKU emailProtection, SKI and AKI:
the profile c2pa-rs checks (sdk/src/crypto/cose/certificate_profile.rs).

Keys and certificate signatures come fresh from OpenSSL on every run; names,
serials, extensions and validity windows are fixed.
"""

import os
import subprocess

NOT_BEFORE = "20250101000000Z"
NOT_AFTER = "20350101000000Z"

CA_EXT = """[ext]
basicConstraints = critical, CA:true{pathlen}
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
"""

LEAF_EXT = """[ext]
basicConstraints = critical, CA:false
keyUsage = critical, digitalSignature
extendedKeyUsage = emailProtection
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
"""

TSA_EXT = """[ext]
basicConstraints = critical, CA:false
keyUsage = critical, digitalSignature
extendedKeyUsage = critical, timeStamping
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
"""

# openssl ca needs a config; one minimal config serves every issuance.
CA_CONF = """[ca]
default_ca = CA_default
[CA_default]
database = {db}
new_certs_dir = {dir}
serial = {serial}
default_md = {md}
policy = policy_any
unique_subject = no
copy_extensions = none
email_in_dn = no
[policy_any]
commonName = supplied
organizationName = optional
"""


class PKIError(Exception):
    pass


def _run(args, cwd):
    proc = subprocess.run(args, cwd=cwd, capture_output=True)
    if proc.returncode != 0:
        raise PKIError(f"{' '.join(args)} failed: {proc.stderr.decode(errors='replace')}")
    return proc.stdout


def _keygen(cwd, name, kind):
    path = os.path.join(cwd, f"{name}.key")
    if kind == "p256":
        args = ["openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"]
    elif kind == "p384":
        args = ["openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-384"]
    elif kind == "p521":
        args = ["openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-521"]
    elif kind == "rsa":
        args = ["openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"]
    elif kind == "ed25519":
        args = ["openssl", "genpkey", "-algorithm", "ED25519"]
    else:
        raise PKIError(f"unknown key kind {kind}")
    _run(args + ["-out", path], cwd)
    return path


class Issued:
    """One certificate with its key; chain_pem is leaf first, root excluded."""

    def __init__(self, name, key_path, cert_path, chain_paths):
        self.name = name
        self.key_path = key_path
        self.cert_path = cert_path
        self.chain_paths = chain_paths

    def chain_pem(self):
        return b"".join(open(p, "rb").read() for p in self.chain_paths)

    def key_pem(self):
        return open(self.key_path, "rb").read()


class TestPKI:
    def __init__(self, directory):
        self.dir = directory
        os.makedirs(directory, exist_ok=True)
        self._serial = 0x1000

    def _issue(self, name, subject, kind, ext_text, issuer=None, self_sign=False):
        """Issue a certificate with `openssl ca` (fixed dates, fixed serial)."""
        d = self.dir
        key = _keygen(d, name, kind)
        csr = os.path.join(d, f"{name}.csr")
        _run(["openssl", "req", "-new", "-key", key, "-subj", subject, "-out", csr], d)
        ext = os.path.join(d, f"{name}.ext")
        with open(ext, "w") as f:
            f.write(ext_text)
        self._serial += 1
        cadir = os.path.join(d, f"ca-{name}")
        os.makedirs(cadir, exist_ok=True)
        db = os.path.join(cadir, "index.txt")
        open(db, "w").close()
        serial = os.path.join(cadir, "serial")
        with open(serial, "w") as f:
            f.write(f"{self._serial:X}\n")
        conf = os.path.join(cadir, "ca.cnf")
        # Ed25519 takes no digest; openssl ca wants "null" there.
        signing_kind = kind if self_sign else issuer.kind
        md = "null" if signing_kind == "ed25519" else "sha256"
        with open(conf, "w") as f:
            f.write(CA_CONF.format(db=db, dir=cadir, serial=serial, md=md))
        cert = os.path.join(d, f"{name}.pem")
        args = ["openssl", "ca", "-batch", "-config", conf, "-in", csr, "-out", cert, "-notext",
                "-startdate", NOT_BEFORE, "-enddate", NOT_AFTER,
                "-extfile", ext, "-extensions", "ext"]
        if self_sign:
            args += ["-selfsign", "-keyfile", key]
        else:
            args += ["-cert", issuer.cert_path, "-keyfile", issuer.key_path]
        _run(args, d)
        chain = [cert] if self_sign or issuer is None else [cert] + issuer.chain_paths
        issued = Issued(name, key, cert, chain)
        issued.kind = kind
        return issued

    def root(self, name, cn):
        r = self._issue(name, f"/CN={cn}/O=Exhibit Archive Test", "p256",
                        CA_EXT.format(pathlen=""), self_sign=True)
        r.chain_paths = []  # roots are anchors, never sent in x5chain
        return r

    def intermediate(self, name, cn, root):
        i = self._issue(name, f"/CN={cn}/O=Exhibit Archive Test", "p256",
                        CA_EXT.format(pathlen=", pathlen:0"), issuer=root)
        return i

    def leaf(self, name, cn, kind, issuer, ext=LEAF_EXT):
        return self._issue(name, f"/CN={cn}/O=Exhibit Archive Test", kind, ext, issuer=issuer)

    def self_signed_leaf(self, name, cn):
        return self._issue(name, f"/CN={cn}/O=Exhibit Archive Test", "p256", LEAF_EXT,
                           self_sign=True)


def build(directory):
    """Build the whole test PKI; returns a dict of Issued by role."""
    pki = TestPKI(directory)
    out = {}
    root = pki.root("signer-root", "Exhibit Test Signer Root")
    inter = pki.intermediate("signer-int", "Exhibit Test Signer Intermediate", root)
    out["root"] = root
    out["intermediate"] = inter
    out["es256"] = pki.leaf("leaf-es256", "Exhibit Test Device ES256", "p256", inter)
    out["es384"] = pki.leaf("leaf-es384", "Exhibit Test Device ES384", "p384", inter)
    out["es512"] = pki.leaf("leaf-es512", "Exhibit Test Device ES512", "p521", inter)
    out["ps256"] = pki.leaf("leaf-ps256", "Exhibit Test Device PS256", "rsa", inter)
    out["ed25519"] = pki.leaf("leaf-ed25519", "Exhibit Test Device Ed25519", "ed25519", inter)
    uroot = pki.root("untrusted-root", "Exhibit Untrusted Private Root")
    uinter = pki.intermediate("untrusted-int", "Exhibit Untrusted Intermediate", uroot)
    out["untrusted"] = pki.leaf("leaf-untrusted", "Exhibit Untrusted Device", "p256", uinter)
    out["selfsigned"] = pki.self_signed_leaf("leaf-selfsigned", "Exhibit Self-Signed Device")
    troot = pki.root("tsa-root", "Exhibit Test TSA Root")
    out["tsa_root"] = troot
    out["tsa"] = pki.leaf("tsa-leaf", "Exhibit Test TSA", "p256", troot, ext=TSA_EXT)
    with open(os.path.join(directory, "signer-anchors.pem"), "wb") as f:
        f.write(open(root.cert_path, "rb").read())
    with open(os.path.join(directory, "tsa-anchors.pem"), "wb") as f:
        f.write(open(troot.cert_path, "rb").read())
    return out

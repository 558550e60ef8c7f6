"""A local RFC 3161 time-stamp authority on 127.0.0.1, answered by `openssl ts -reply`.

Usage:
    with LocalTSA(tsa_cert_pem, tsa_key_pem, workdir) as tsa:
        tsa.url   # http://127.0.0.1:PORT/tsa

Each POST body (a DER TimeStampReq) is written to a temp file and answered by
`openssl ts -reply -config tsa.cnf`; the reply is returned as
application/timestamp-reply. Requests are served one at a time (the serial file
is shared). Listens on loopback only.
"""

import http.server
import os
import subprocess
import tempfile
import threading

TSA_CONF = """[tsa]
default_tsa = tsa_config1
[tsa_config1]
dir = {dir}
serial = {dir}/tsaserial
crypto_device = builtin
signer_cert = {cert}
signer_key = {key}
signer_digest = sha256
default_policy = 1.3.6.1.4.1.55555.1.1
digests = sha256, sha384, sha512
accuracy = secs:1
ordering = yes
tsa_name = no
ess_cert_id_chain = no
ess_cert_id_alg = sha256
"""


class LocalTSA:
    def __init__(self, cert_path, key_path, workdir):
        self.dir = os.path.join(workdir, "tsa-state")
        os.makedirs(self.dir, exist_ok=True)
        with open(os.path.join(self.dir, "tsaserial"), "w") as f:
            f.write("01\n")
        self.conf = os.path.join(self.dir, "tsa.cnf")
        with open(self.conf, "w") as f:
            f.write(TSA_CONF.format(dir=self.dir, cert=cert_path, key=key_path))
        self.requests = 0
        self._lock = threading.Lock()
        self._server = None
        self._thread = None

    def reply(self, request_der):
        with self._lock, tempfile.TemporaryDirectory(dir=self.dir) as tmp:
            q = os.path.join(tmp, "req.tsq")
            r = os.path.join(tmp, "resp.tsr")
            with open(q, "wb") as f:
                f.write(request_der)
            proc = subprocess.run(
                ["openssl", "ts", "-reply", "-config", self.conf, "-queryfile", q, "-out", r],
                capture_output=True)
            if proc.returncode != 0:
                raise RuntimeError(proc.stderr.decode(errors="replace"))
            self.requests += 1
            return open(r, "rb").read()

    def __enter__(self):
        tsa = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length", "0"))
                body = self.rfile.read(length) if 0 < length <= 1 << 16 else b""
                try:
                    resp = tsa.reply(body)
                except Exception:  # a bad request gets a 400, never a crash
                    self.send_response(400)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                self.send_response(200)
                self.send_header("Content-Type", "application/timestamp-reply")
                self.send_header("Content-Length", str(len(resp)))
                self.end_headers()
                self.wfile.write(resp)

            def log_message(self, *args):
                pass

        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    @property
    def url(self):
        return f"http://127.0.0.1:{self._server.server_address[1]}/tsa"

    def __exit__(self, *exc):
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()
        return False

#!/usr/bin/env python3
"""boto3 as an independent S3 client for the S3 tests and bench/s3.sh.

Reads the endpoint and credentials from the usual environment (AWS_ENDPOINT_URL_S3,
AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION). Commands:
  put BUCKET KEY FILE          upload FILE (boto3's managed transfer: multipart, threads)
  get BUCKET KEY FILE          download to FILE (managed transfer)
  sha256 BUCKET KEY            print the SHA-256 of the object's bytes (streamed)
  delete BUCKET KEY            delete the key (every version on a versioned bucket); exit 3 if refused
  exists BUCKET KEY            print "yes" or "no"
  bench put BUCKET FILE KEY [FILE KEY...]   time the uploads, print "<seconds> <cpu-seconds>"
  bench put-hashed BUCKET FILE KEY [...]    the same uploads doing our client's integrity
                                            work too: Content-MD5 on every part (or PUT) and
                                            a second SHA-256 pass over its body (for our
                                            whole-blob re-hash); the server checks the MD5
  bench get BUCKET OUT KEY...               time the downloads (each into OUT), likewise
                                            (cpu-seconds: this process's user + system CPU
                                            during the transfers, all threads)
  bench put-tree BUCKET PREFIX DIR [THREADS]
                                            every regular file under DIR, each read whole,
                                            SHA-256'd and PUT (put_object) as PREFIX/<sha256>,
                                            a content seen before skipped, THREADS (default
                                            8) uploads in flight: the upload an ingest into
                                            S3 does, without the verifying; prints
                                            "<seconds> <cpu-seconds> <files> <objects>"
  purge BUCKET PREFIX          delete every key under PREFIX
"""
import base64
import hashlib
import os
import resource
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

# boto3 >= 1.36 adds CRC checksums (aws-chunked trailers) Ceph 16 does not take.
os.environ.setdefault("AWS_REQUEST_CHECKSUM_CALCULATION", "when_required")
os.environ.setdefault("AWS_RESPONSE_CHECKSUM_VALIDATION", "when_required")
import boto3  # noqa: E402
from boto3.s3.transfer import TransferConfig  # noqa: E402
from botocore.config import Config  # noqa: E402
from botocore.exceptions import ClientError  # noqa: E402


def client():
    return boto3.client("s3", endpoint_url=os.environ.get("AWS_ENDPOINT_URL_S3"),
                        config=Config(s3={"addressing_style": "path"}, retries={"max_attempts": 3}))


def hash_like_ours(params, **kwargs):
    """before-call hook of `bench put-hashed`: what our client computes beyond boto3's one
    SHA-256 of each request body: its MD5 (sent as Content-MD5, which the server checks) and
    another SHA-256 pass (ours re-hashes the whole blob against its ID)."""
    body = params["body"]
    data = body.read() if hasattr(body, "read") else body
    if hasattr(body, "seek"):
        body.seek(0)
    params["headers"]["Content-MD5"] = base64.b64encode(hashlib.md5(data).digest()).decode()
    hashlib.sha256(data).digest()


def put_tree(bucket, prefix, root, threads):
    """`bench put-tree`: the peer of an ingest into S3 (see the docstring)."""
    s3 = boto3.client("s3", endpoint_url=os.environ.get("AWS_ENDPOINT_URL_S3"),
                      config=Config(s3={"addressing_style": "path"}, retries={"max_attempts": 3},
                                    max_pool_connections=threads))
    files = [os.path.join(d, f) for d, _, names in os.walk(root) for f in names
             if os.path.isfile(os.path.join(d, f)) and not os.path.islink(os.path.join(d, f))]
    seen, lock = set(), threading.Lock()

    def put(path):
        with open(path, "rb") as fh:
            body = fh.read()
        digest = hashlib.sha256(body).hexdigest()
        with lock:
            if digest in seen:
                return 0
            seen.add(digest)
        s3.put_object(Bucket=bucket, Key=f"{prefix}/{digest}", Body=body)
        return 1

    r0 = resource.getrusage(resource.RUSAGE_SELF)
    t0 = time.perf_counter()
    with ThreadPoolExecutor(threads) as pool:
        objects = sum(pool.map(put, files))
    seconds = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_SELF)
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    print(f"{seconds:.6f} {cpu:.6f} {len(files)} {objects}")
    return 0


def main(argv):
    s3 = client()
    cmd = argv[0]
    if cmd == "put":
        s3.upload_file(argv[3], argv[1], argv[2])
    elif cmd == "get":
        s3.download_file(argv[1], argv[2], argv[3])
    elif cmd == "sha256":
        h = hashlib.sha256()
        body = s3.get_object(Bucket=argv[1], Key=argv[2])["Body"]
        for chunk in iter(lambda: body.read(1 << 20), b""):
            h.update(chunk)
        print(h.hexdigest())
    elif cmd == "delete":
        bucket, key = argv[1], argv[2]
        try:
            versions = s3.list_object_versions(Bucket=bucket, Prefix=key)
            ids = [v["VersionId"] for v in versions.get("Versions", []) + versions.get("DeleteMarkers", [])
                   if v["Key"] == key and v.get("VersionId") not in (None, "null")]
            if ids:
                for vid in ids:
                    s3.delete_object(Bucket=bucket, Key=key, VersionId=vid)
            else:
                s3.delete_object(Bucket=bucket, Key=key)
        except ClientError as e:
            print(e.response["Error"]["Code"], file=sys.stderr)
            return 3
    elif cmd == "exists":
        try:
            s3.head_object(Bucket=argv[1], Key=argv[2])
            print("yes")
        except ClientError as e:
            if e.response["Error"]["Code"] in ("404", "NoSuchKey", "NotFound"):
                print("no")
            else:
                raise
    elif cmd == "bench" and argv[1] == "put-tree":
        return put_tree(argv[2], argv[3], argv[4], int(argv[5]) if len(argv) > 5 else 8)
    elif cmd == "bench":
        mode, bucket, rest = argv[1], argv[2], argv[3:]
        config = TransferConfig()  # boto3's defaults: 8 MiB threshold and parts, 10 threads
        r0 = resource.getrusage(resource.RUSAGE_SELF)
        t0 = time.perf_counter()
        if mode == "put-hashed":
            s3.meta.events.register("before-call.s3.UploadPart", hash_like_ours)
            s3.meta.events.register("before-call.s3.PutObject", hash_like_ours)
        if mode in ("put", "put-hashed"):
            for path, key in zip(rest[0::2], rest[1::2]):
                s3.upload_file(path, bucket, key, Config=config)
        else:
            for key in rest[1:]:
                s3.download_file(bucket, key, rest[0], Config=config)
        seconds = time.perf_counter() - t0
        r1 = resource.getrusage(resource.RUSAGE_SELF)
        cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
        print(f"{seconds:.6f} {cpu:.6f}")
    elif cmd == "purge":
        paginator = s3.get_paginator("list_objects_v2")
        for page in paginator.paginate(Bucket=argv[1], Prefix=argv[2]):
            for obj in page.get("Contents", []):
                s3.delete_object(Bucket=argv[1], Key=obj["Key"])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Make sure the peer scripts run under a Python that has c2pa-python and cbor2.

The scripts use the interpreter they are started with. When that one lacks the
packages (e.g. a Swift test calls plain `python3`), they re-run themselves once
under the repository's own `.venv` (../../.venv relative to this file) if it
exists; otherwise they exit with a message naming the interpreter.
"""

import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def require():
    try:
        import c2pa  # noqa: F401
        import cbor2  # noqa: F401
        return
    except ImportError as e:
        missing = e.name
    venv_python = os.path.join(REPO, ".venv", "bin", "python3")
    # A venv's python is a symlink to the base interpreter, so compare nothing but
    # the guard: re-exec at most once.
    if os.path.exists(venv_python) and not os.environ.get("EXHIBIT_PEERS_REEXEC"):
        os.environ["EXHIBIT_PEERS_REEXEC"] = "1"
        os.execv(venv_python, [venv_python] + sys.argv)
    sys.exit(f"{missing} is not installed for {sys.executable} and no usable "
             f"{venv_python}; create the repo's .venv (c2pa-python, cbor2)")

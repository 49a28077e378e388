"""SHA-256 for the decision path without ``hashlib``'s start-up.

``import hashlib`` loads OpenSSL and builds a constructor for every algorithm it knows,
which costs a hook deciding in its own process a few milliseconds; bastion only needs
SHA-256 (session file names, the audit log's digests). CPython's own implementation is
one small extension module (``_sha256`` in 3.11, ``_sha2`` from 3.12) and gives the same
digest; ``hashlib`` is the fallback where neither exists.
"""

from __future__ import annotations

try:
    from _sha256 import sha256  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - Python 3.12+ or a build without it
    try:
        from _sha2 import sha256  # type: ignore[import-not-found, no-redef]
    except ImportError:
        from hashlib import sha256  # type: ignore[assignment]

__all__ = ["sha256"]

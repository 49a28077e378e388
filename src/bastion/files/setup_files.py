"""Files a test runner's config names to run on every test run (jest's and vitest's
``globalSetup``, ``globalTeardown``, ``setupFiles``, ``setupFilesAfterEnv``).

The config itself is a row of the path table (``js-test-configs``); the files it names
are ordinary project files with no name of their own, so they are found by reading the
configs above the written file: :func:`naming_config` walks up from the file to the
workspace root (at most :data:`MAX_LEVELS` folders, one directory listing each), reads
each jest/vitest/vite config there (regular files up to :data:`MAX_BYTES`, parsed once
per identity and modification time) and says which one names the file. The layer then
judges what the write plants there as JavaScript; only a catastrophic plant is denied
(a setup file is test code, read again when a command runs the tests).
"""

from __future__ import annotations

import os
import stat

from ..precompiled import IGNORECASE
from ..shell.syntax.lazyre import LazyPattern

MAX_LEVELS = 8
MAX_BYTES = 256 * 1024
#: Script files a config can name (what ``node`` and the runners' transformers load).
SCRIPT_EXTENSIONS = (".js", ".ts", ".mjs", ".cjs", ".mts", ".cts", ".jsx", ".tsx")
_CONFIG = LazyPattern(r"^(?:jest|vitest|vite)\.config\.[cm]?[jt]s$|^vitest\.workspace\.[cm]?[jt]s$")
_KEYS = LazyPattern(r"\b(?:globalSetup|globalTeardown|setupFiles|setupFilesAfterEnv)\b['\"]?\s*:\s*"
                    r"(\[[^\]]*\]|'[^']*'|\"[^\"]*\"|`[^`$]*`)")
_STRING = LazyPattern(r"'([^']*)'|\"([^\"]*)\"|`([^`$]*)`")
#: jest's ``<rootDir>`` (any case) at the start of a path: the config's own folder.
_ROOTDIR = LazyPattern(r"^<rootdir>/?", IGNORECASE)
_CACHE: dict[tuple[str, int, int, int], tuple[str, ...]] = {}


def naming_config(path: str, roots: tuple[str, ...]) -> str | None:
    """The jest/vitest/vite config that names ``path`` (absolute, resolved) as a setup
    file, or None. Only files inside a workspace root are looked at."""
    if not path.endswith(SCRIPT_EXTENSIONS):
        return None
    root = next((r for r in roots if path.startswith(r.rstrip("/") + "/")), None)
    if root is None:
        return None
    stem = os.path.splitext(path)[0]
    folder = os.path.dirname(path)
    for _ in range(MAX_LEVELS):
        try:
            names = [e.name for e in os.scandir(folder) if _CONFIG.match(e.name)]
        except OSError:
            names = []
        for name in names:
            config = os.path.join(folder, name)
            if any(named in (path, stem) for named in _named(config)):
                return config
        if folder == root.rstrip("/") or folder in ("/", ""):
            break
        folder = os.path.dirname(folder)
    return None


def _named(config: str) -> tuple[str, ...]:
    """The files ``config`` names as setup files, absolute, extensions as written."""
    try:
        st = os.stat(config)
    except OSError:
        return ()
    if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_BYTES:
        return ()
    key = (config, st.st_ino, st.st_size, st.st_mtime_ns)
    cached = _CACHE.get(key)
    if cached is not None:
        return cached
    try:
        with open(config, encoding="utf-8", errors="replace") as handle:
            text = handle.read(MAX_BYTES)
    except OSError:
        return ()
    base = os.path.dirname(config)
    out = []
    for match in _KEYS.finditer(text):
        for parts in _STRING.findall(match.group(1)):
            value = next((p for p in parts if p), "")
            if not value.startswith((".", "<rootdir>", "<rootDir>", "/")) and not value.endswith(SCRIPT_EXTENSIONS):
                continue  # a package name (``jest-environment-x``) is not a project file
            value = _ROOTDIR.sub("", value)
            out.append(os.path.normpath(os.path.join(base, value)))
    if len(_CACHE) > 64:
        _CACHE.clear()
    _CACHE[key] = result = tuple(out)
    return result

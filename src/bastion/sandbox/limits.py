"""Process limits that hold on every backend: environment allowlist, output cap, rlimits,
and killing a whole process tree.

These are the spec 000 §05 limits (timeout, output cap, locked working directory,
environment allowlist). They are plain data and small functions so the runner, the
Landlock helper and the tests share one definition.
"""

from __future__ import annotations

import fnmatch
import os
import resource
import signal
from collections.abc import Callable, Iterable, Mapping

#: Variables a command always gets (when set), plus every ``LC_*``.
BASE_ENV: tuple[str, ...] = ("PATH", "HOME", "LANG", "TERM", "TZ", "USER", "SHELL", "TMPDIR")
BASE_ENV_GLOBS: tuple[str, ...] = ("LC_*",)

#: Names that look like secrets: dropped even when a glob in ``env.allow`` matches them;
#: only a name written out exactly in ``env.allow`` gets through.
SECRET_ENV_GLOBS: tuple[str, ...] = ("*_TOKEN", "*_KEY", "*SECRET*", "*PASSWORD*", "AWS_*", "GITHUB_*")

#: Used when the caller's PATH is missing.
DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin"

#: Sandbox-side values that override the caller's (the private /tmp).
SANDBOX_TMP = "/tmp"


def _matches(name: str, globs: Iterable[str]) -> bool:
    upper = name.upper()
    return any(fnmatch.fnmatchcase(upper, g.upper()) for g in globs)


def is_secret_name(name: str) -> bool:
    """True for names such as ``GITHUB_TOKEN``, ``AWS_REGION``, ``DB_PASSWORD``."""
    return _matches(name, SECRET_ENV_GLOBS)


def filter_env(environ: Mapping[str, str], allow: Iterable[str] = ()) -> dict[str, str]:
    """The environment a sandboxed command sees.

    ``allow`` holds extra names or globs (``NODE_*``). A secret-looking name passes
    only when written out exactly in ``allow``: ``NPM_*`` does not let ``NPM_TOKEN``
    through, ``NPM_TOKEN`` does. ``TMPDIR`` always points at the private /tmp.
    """
    exact = {a for a in allow if not any(ch in a for ch in "*?[")}
    globs = tuple(a for a in allow if a not in exact)
    out: dict[str, str] = {}
    for name, value in environ.items():
        if "=" in name or not name:
            continue
        if name in exact:
            out[name] = value
            continue
        if is_secret_name(name):
            continue
        if name in BASE_ENV or _matches(name, BASE_ENV_GLOBS) or (globs and _matches(name, globs)):
            out[name] = value
    out.setdefault("PATH", DEFAULT_PATH)
    out["TMPDIR"] = SANDBOX_TMP
    return out


# --------------------------------------------------------------------------- output cap


class OutputCap:
    """Keeps the first three quarters and the last quarter of a stream, whatever its size.

    Memory stays at ``limit`` bytes however much the command prints; what is dropped is
    replaced by one marker line naming how many bytes went. ``feed`` returns the bytes
    that may be shown at once (for live output); ``rest`` what to show at the end.
    """

    def __init__(self, limit: int) -> None:
        self.limit = max(0, int(limit))
        self.tail_limit = self.limit // 4
        self.head_limit = self.limit - self.tail_limit
        self.head = bytearray()
        self.tail = bytearray()
        self.total = 0

    def feed(self, data: bytes) -> bytes:
        self.total += len(data)
        live = b""
        room = self.head_limit - len(self.head)
        if room > 0:
            live = data[:room]
            self.head += live
            data = data[room:]
        if data and self.tail_limit:
            if len(data) >= self.tail_limit:
                self.tail = bytearray(data[-self.tail_limit :])
            else:
                self.tail += data
                excess = len(self.tail) - self.tail_limit
                if excess > 0:
                    del self.tail[:excess]
        return live

    @property
    def truncated(self) -> bool:
        return self.total > self.limit

    @property
    def omitted(self) -> int:
        return max(0, self.total - len(self.head) - len(self.tail))

    def marker(self) -> bytes:
        return f"\n[bastion: output truncated: {self.omitted} bytes omitted]\n".encode()

    def rest(self) -> bytes:
        """What was not returned by ``feed``: the marker (if any) and the tail."""
        return (self.marker() if self.truncated else b"") + bytes(self.tail)

    def value(self) -> bytes:
        return bytes(self.head) + self.rest()


# --------------------------------------------------------------------------- rlimits

#: Resource limits for the sandboxed tree (name → soft and hard value). ``RLIMIT_NPROC``
#: does not bind root; the PID namespace and the timeout bound root's fork bombs.
RLIMITS: Mapping[str, int] = {
    "RLIMIT_CORE": 0,
    "RLIMIT_FSIZE": 8 << 30,
    "RLIMIT_NPROC": 8192,
}


def rlimit_setter(limits: Mapping[str, int] = RLIMITS) -> Callable[[], None]:
    """A ``preexec_fn`` that lowers (never raises) each limit; it only calls setrlimit."""
    pairs = [(getattr(resource, name), value) for name, value in limits.items() if hasattr(resource, name)]

    def apply() -> None:
        for which, value in pairs:
            try:
                soft, hard = resource.getrlimit(which)
                new_hard = value if hard == resource.RLIM_INFINITY else min(hard, value)
                new_soft = value if soft == resource.RLIM_INFINITY else min(soft, value)
                resource.setrlimit(which, (min(new_soft, new_hard), new_hard))
            except (ValueError, OSError):
                pass

    return apply


def apply_to_self(limits: Mapping[str, int] = RLIMITS) -> None:
    """Lower this process's own limits (for a process that only launches the sandbox)."""
    rlimit_setter(limits)()


# --------------------------------------------------------------------------- killing


def kill_group(pid: int) -> None:
    """SIGKILL the process group led by ``pid`` (the sandbox launcher, started with
    ``start_new_session``). With a PID namespace this takes the whole tree down, since
    the namespace's init dies with its launcher."""
    for target in (lambda: os.killpg(pid, signal.SIGKILL), lambda: os.kill(pid, signal.SIGKILL)):
        try:
            target()
        except (ProcessLookupError, PermissionError):
            pass


def exit_status(returncode: int) -> int:
    """A shell-style status: a death by signal N is 128 + N."""
    return 128 - returncode if returncode < 0 else returncode

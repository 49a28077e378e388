"""What the sandbox blocked, as data and as one readable line each.

The kernel does not tell bastion which access it refused, but the command usually does:
``touch: cannot touch '/etc/x': Read-only file system``. Error lines are matched against
the patterns below, and each path found is *checked against the plan* — only a path the
sandbox really makes read-only or unreadable is reported, so an ordinary permission
problem inside the workspace is not blamed on the sandbox. The proxy reports refused
domains itself, exactly.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from functools import lru_cache

from ..precompiled import MULTILINE, pattern as compiled_pattern
from .plan import Plan

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re

#: Most violations listed per run; more are summarised in one extra entry.
MAX_VIOLATIONS = 20

_ERRORS = (
    "Read-only file system|Permission denied|Operation not permitted|No such file or directory"
    "|Device or resource busy"  # a rename over a read-only bind mount (git's config.lock)
)
_FAILED = r"(?:cannot|can't|unable to|could not|failed to)"
#: Error-line shapes of common tools (coreutils, shells, Python, git …).
_PATH_PATTERNS = (
    # mv: cannot move '.git' to '.git.old': Device or resource busy (either end may be protected)
    # mv: inter-device move failed: 'c2' to '.git/config'; unable to remove target: Device or …
    rf"['‘`\"](?P<src>[^'‘’`\"\n]+)['’`\"] to ['‘`\"](?P<path>[^'‘’`\"\n]+)['’`\"](?:; [a-z ]+)?: (?P<err>{_ERRORS})",
    # touch: cannot touch '/etc/x': Read-only file system / mkdir: cannot create directory ‘/x’: …
    # fatal: could not create directory of '.git/worktrees/x': …  warning: unable to unlink '…': …
    rf"{_FAILED} [a-z ]+ ['‘`\"](?P<path>[^'‘’`\"\n]+)['’`\"](?: for [a-z]+)?: (?P<err>{_ERRORS})",
    # sh: 1: cannot create /etc/motd: Read-only file system / error: unable to update .git/info/refs: …
    rf"{_FAILED} [a-z]+ (?P<path>[^\s'‘’`\"]+): (?P<err>{_ERRORS})",
    # Python: PermissionError: [Errno 13] Permission denied: '/root/.ssh/id_rsa'
    rf"(?P<err>{_ERRORS}): ['\"](?P<path>[^'\"\n]+)['\"]",
    # git: error: could not lock config file /x/.git/config: Read-only file system
    rf"(?:file|directory) ['\"]?(?P<path>[^'\"\n: ]+?)['\"]?: (?P<err>{_ERRORS})",
    # cat: /root/.ssh/id_rsa: Permission denied   bash: /etc/x: Read-only file system
    rf"^(?:[^:\n]+: )+?(?:line \d+: )?['\"]?(?P<path>[^'\"\n:]+)['\"]?: (?P<err>{_ERRORS})$",
)
#: Network failures a command reports when it tried to go around the proxy.
_NET_PATTERNS = (
    r"Could not resolve host: (?P<host>[^\s;]+)",
    r"(?:Failed to connect to|connect to) (?P<host>[^\s]+) port (?P<port>\d+)",
    r"(?P<host>)(?:Temporary failure in name resolution|Name or service not known|Network is unreachable)",
)


_MARKERS = ("Read-only", "Permission denied", "not permitted", "No such file", "resource busy")
_NET_MARKERS = ("resolve host", "connect to", "name resolution", "service not known", "unreachable")


def _within(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


def _exists_on_host(path: str) -> bool:
    """Whether some part of ``path`` below /tmp exists outside the sandbox."""
    parent = os.path.dirname(path)
    return parent != "/tmp" and os.path.lexists(parent) or os.path.lexists(path)


@lru_cache(maxsize=1)
def _compiled() -> tuple[list[re.Pattern[str]], list[re.Pattern[str]]]:
    return (
        [compiled_pattern(p, MULTILINE) for p in _PATH_PATTERNS],  # this module's own text: kept, built without re
        [compiled_pattern(p, MULTILINE) for p in _NET_PATTERNS],
    )


def _classify(path: str, err: str, plan: Plan) -> dict[str, str] | None:
    if err == "No such file or directory":
        # /tmp is private: a host path there is simply not in the sandbox's view
        mapped = any(_within(path, root) for root in (*plan.write_roots, *plan.visible))
        if _within(path, "/tmp") and not mapped and _exists_on_host(path):
            return {"kind": "private_tmp", "target": path, "detail": "exists on the host, but /tmp is private to each run"}
        return None
    why = plan.hidden_why(path)
    if why is not None:
        kind = "write" if err == "Read-only file system" else "read"
        return {"kind": kind, "target": path, "detail": f"hidden by the sandbox: {why}"}
    why = plan.protected_why(path)
    if why is not None:
        return {"kind": "write", "target": path, "detail": f"read-only in the sandbox: {why}"}
    if err == "Device or resource busy" and path in (*plan.pinned, *plan.rewritable, *plan.write_roots):
        return {"kind": "write", "target": path,
                "detail": "a mount point in the sandbox: it holds protected paths, so it cannot be moved or removed"}
    if not plan.writable(path) and err in ("Read-only file system", "Permission denied", "Device or resource busy"):
        return {"kind": "write", "target": path, "detail": "outside the workspace and the write roots"}
    return None


class LineScanner:
    """Keeps the error lines of a stream as it passes, before the output cap cuts it:
    a violation on line 10 000 of a flood is still found. Memory is bounded (the
    current partial line and at most ``max_lines`` candidate lines)."""

    def __init__(self, max_lines: int = 500, max_line: int = 4096) -> None:
        self.lines: list[str] = []
        self.max_lines = max_lines
        self.max_line = max_line
        self._partial = b""

    def feed(self, data: bytes) -> None:
        data = self._partial + data
        *complete, self._partial = data.split(b"\n")
        if len(self._partial) > self.max_line:
            self._partial = self._partial[: self.max_line]
        for raw in complete:
            self._keep(raw)

    def _keep(self, raw: bytes) -> None:
        if len(self.lines) >= self.max_lines:
            return
        line = raw[: self.max_line].decode("utf-8", "replace")
        if any(marker in line for marker in _MARKERS + _NET_MARKERS):
            self.lines.append(line)

    def text(self) -> str:
        if self._partial:
            self._keep(self._partial)
            self._partial = b""
        return "\n".join(self.lines)


def from_stderr(stderr: str, plan: Plan, *, network: bool) -> list[dict[str, str]]:
    """Violations a command's error output reveals, checked against ``plan``."""
    path_patterns, net_patterns = _compiled()
    found: list[dict[str, str]] = []
    seen: set[tuple[str, str]] = set()
    for line in stderr.splitlines():
        if not any(marker in line for marker in _MARKERS):
            continue
        for pattern in path_patterns:
            match = pattern.search(line)
            if match is None:
                continue
            for group in ("path", "src") if "src" in pattern.groupindex else ("path",):
                path = os.path.normpath(os.path.join(plan.cwd, match.group(group).strip()))
                item = _classify(path, match.group("err"), plan)
                if item is not None and (item["kind"], path) not in seen:
                    seen.add((item["kind"], path))
                    found.append(item)
            break
    if not network:
        for pattern in net_patterns:
            for match in pattern.finditer(stderr):
                host = match.group("host") or ""
                port = match.groupdict().get("port")
                target = f"{host}:{port}" if host and port else host or "network"
                if ("network", target) in seen:
                    continue
                seen.add(("network", target))
                found.append({
                    "kind": "network",
                    "target": target,
                    "detail": "the sandbox has no network (set sandbox.network.allowedDomains)",
                })
    return found


def merge(*groups: Iterable[dict[str, str]]) -> list[dict[str, str]]:
    """All violations, de-duplicated, at most ``MAX_VIOLATIONS`` plus a summary."""
    out: list[dict[str, str]] = []
    seen: set[tuple[str, str]] = set()
    for group in groups:
        for item in group:
            key = (item["kind"], item["target"])
            if key not in seen:
                seen.add(key)
                out.append(item)
    if len(out) > MAX_VIOLATIONS:
        extra = len(out) - MAX_VIOLATIONS
        out = out[:MAX_VIOLATIONS] + [{"kind": "more", "target": "", "detail": f"{extra} more not listed"}]
    return out


_VERBS = {
    "write": "a write to",
    "read": "a read of",
    "network": "a connection to",
    "private_tmp": "access to",
    "created": "the creation of",
}


def describe(item: dict[str, str]) -> str:
    """One readable line: ``bastion: sandbox blocked a write to /etc/x (…)``."""
    if item["kind"] == "more":
        return f"bastion: sandbox blocked {item['detail']}"
    if item["kind"] == "limit":
        return f"bastion: sandbox limit hit: {item['detail']}"
    verb = _VERBS.get(item["kind"], item["kind"])
    return f"bastion: sandbox blocked {verb} {item['target']} ({item['detail']})"

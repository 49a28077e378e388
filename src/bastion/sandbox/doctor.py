"""What this machine can enforce: each kernel feature probed for real, then one real
sandboxed run per backend, whose ``enforced`` report is the final word.

``bastion doctor`` prints this; ``available()`` is the cheap check the engine uses
before it lets ``autoAllowBashIfSandboxed`` allow anything.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Check:
    """One thing ``bastion sandbox doctor`` checked, and whether it holds."""

    name: str
    ok: bool
    detail: str

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "ok": self.ok, "detail": self.detail}


@dataclass
class Report:
    """What ``bastion sandbox doctor`` found: its checks and the backends that can run."""

    checks: list[Check] = field(default_factory=list)
    backends: dict[str, dict[str, Any]] = field(default_factory=dict)
    backend: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "backend": self.backend,
            "checks": [c.to_dict() for c in self.checks],
            "backends": self.backends,
        }

    def render(self) -> str:
        lines = ["bastion sandbox doctor", ""]
        width = max(len(c.name) for c in self.checks)
        for check in self.checks:
            lines.append(f"  {'ok ' if check.ok else 'NO '} {check.name:<{width}}  {check.detail}")
        for name, info in self.backends.items():
            used = " (used by bastion run)" if name == self.backend else ""
            lines.append("")
            if "error" in info:
                lines.append(f"  backend {name}: cannot run here: {info['error']}")
                continue
            lines.append(f"  backend {name}{used}:")
            lines.extend(f"    {label:<13}{text}" for label, text in _enforces(info))
            lines.extend(f"    enforces less: {item}" for item in info.get("missing", ()))
        lines.append("")
        if not self.backend:
            lines.append("bastion run cannot confine commands on this machine: it refuses to run them")
        return "\n".join(lines)


_NETWORK = {
    "none": "own namespace: nothing leaves except through bastion's proxy (allowedDomains)",
    "proxy": "own namespace: only through bastion's proxy (allowedDomains)",
    "tcp-blocked": "TCP connect/bind refused by Landlock; UDP and DNS NOT blocked",
    "host": "NOT isolated",
}


def _enforces(info: dict[str, Any]) -> list[tuple[str, str]]:
    rows = [
        ("file system", "writes only to the workspace, write roots and a private /tmp; "
                        "protected paths read-only; credential stores and denyRead hidden"),
        ("network", _NETWORK.get(info.get("network", ""), str(info.get("network")))),
        ("processes", "own PID namespace: the timeout kills the whole tree" if info.get("pid_namespace")
         else "no PID namespace: processes that call setsid may outlive the timeout"),
        ("unix sockets", "refused (seccomp)" if info.get("seccomp_unix_sockets") else "NOT refused"),
        ("limits", "timeout, output cap, environment allowlist, working directory in the workspace, rlimits"
                   + (", cgroup (" + ", ".join(f"{k} {v}" for k, v in info["cgroup_limits"].items()) + ")"
                      if info.get("cgroup_limits") else "")),
    ]
    if "landlock_abi" in info:
        rows.append(("landlock", f"ABI {info['landlock_abi']}"))
    return rows


def _in_child(probe: Callable[[], None]) -> tuple[bool, str]:
    """Run ``probe`` in a forked child; ok when it returns, else the error it raised."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - child
        os.close(read_end)
        code = 0
        try:
            probe()
        except BaseException as exc:  # noqa: BLE001 - reported to the parent
            os.write(write_end, str(exc).encode()[:400])
            code = 1
        os._exit(code)
    os.close(write_end)
    message = b""
    while chunk := os.read(read_end, 4096):
        message += chunk
    os.close(read_end)
    _, status = os.waitpid(pid, 0)
    ok = os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    return ok, message.decode(errors="replace") or ("ok" if ok else "failed")


def _unshare(flags: int) -> Callable[[], None]:
    from . import landlock

    def probe() -> None:
        if os.geteuid() != 0 or flags != landlock.CLONE_NEWUSER:
            landlock.unshare(landlock.CLONE_NEWUSER)
        if flags != landlock.CLONE_NEWUSER:
            landlock.unshare(flags)

    return probe


def _seccomp_probe() -> None:
    import socket

    from . import landlock, seccomp

    landlock.install_seccomp(seccomp.program())
    try:
        socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    except PermissionError:
        return
    raise OSError("the filter did not refuse a Unix socket")


def _bwrap_check() -> Check:
    import subprocess

    from . import bwrap

    path = bwrap.find()
    if path is None:
        return Check("bubblewrap", False, "not installed (apt-get install bubblewrap); the Landlock backend is used")
    try:
        version = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=5).stdout.strip()
        argv = [path, "--die-with-parent", "--unshare-all", "--ro-bind", "/", "/", "--", "/bin/true"]
        if os.geteuid() == 0:
            argv[1:1] = ["--cap-drop", "ALL"]
        probe = subprocess.run(argv, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError) as exc:
        return Check("bubblewrap", False, f"{path}: {exc}")
    if probe.returncode != 0:
        return Check("bubblewrap", False, f"{path} ({version}) cannot start a sandbox: {probe.stderr.strip()[:200]}")
    return Check("bubblewrap", True, f"{path} ({version}) starts a sandbox")


def _cgroup_check() -> Check:
    from .cgroups import Limits, RunCgroup

    group, why = RunCgroup.create(Limits(processes=64, memory_mb=1024, cpus=1.0))
    if group is None:
        return Check("cgroups", False, why or "not available")
    version = group.version
    group.remove()
    return Check("cgroups", True, f"v{version}: sandbox.limits can bound processes, memory and CPU per run")


def _backend_run(name: str) -> dict[str, Any]:
    import tempfile

    from .runner import Sandbox, SandboxError

    with tempfile.TemporaryDirectory(prefix="bastion-doctor-") as workspace:
        try:
            result = Sandbox(backend=name, warn=None).run(["/bin/true"], cwd=workspace, timeout=10)
        except (SandboxError, OSError) as exc:
            return {"error": str(exc)}
        if result.exit_code != 0:
            return {"error": f"a trivial command failed (exit {result.exit_code}): {result.stderr.strip()[:200]}"}
        return dict(result.enforced)


def report() -> Report:
    """Probe everything (takes a few tens of milliseconds)."""
    from . import landlock, seccomp

    out = Report()
    out.checks.append(_bwrap_check())
    for name, flag in (
        ("user namespaces", landlock.CLONE_NEWUSER),
        ("mount namespaces", landlock.CLONE_NEWNS),
        ("PID namespaces", landlock.CLONE_NEWPID),
        ("network namespaces", landlock.CLONE_NEWNET),
    ):
        ok, detail = _in_child(_unshare(flag))
        out.checks.append(Check(name, ok, "available" if ok else detail))
    version = landlock.abi()
    out.checks.append(Check("Landlock", version > 0, f"ABI {version}" if version else "not available in this kernel"))
    if seccomp.supported():
        ok, detail = _in_child(_seccomp_probe)
        out.checks.append(Check("seccomp", ok, "filters work (Unix sockets can be refused)" if ok else detail))
    else:
        out.checks.append(Check("seccomp", False, "no filter for this architecture"))
    out.checks.append(_cgroup_check())
    for name in ("bwrap", "landlock"):
        out.backends[name] = _backend_run(name)
    for name in ("bwrap", "landlock"):
        if "error" not in out.backends[name]:
            out.backend = name
            break
    return out


def available() -> bool:
    """Cheap: could ``bastion run`` confine a command here (bubblewrap or Landlock)?"""
    if shutil.which("bwrap") is not None:
        return True
    from . import landlock

    return landlock.abi() > 0

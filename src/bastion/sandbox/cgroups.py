"""Process, memory and CPU limits for one sandboxed run, with cgroups.

A PID namespace and the timeout bound a fork bomb in time, not in size: as root, where
``RLIMIT_NPROC`` does not bind, it can take every PID of the machine until it is killed.
A cgroup bounds the whole process tree of one run — ``processes`` at most, a memory
ceiling, a CPU quota — whoever runs it. bastion makes a cgroup for the run as a child of
its own (one per controller on cgroup v1, one on v2), the sandbox's launcher joins it
before the sandbox starts, and afterwards bastion reads what was hit and removes it.

Where cgroups cannot be written (a user without delegation on cgroup v2, a container
that mounts them read-only) the run goes on without them, and its result says so under
"enforced less".

The limits are opt-in (``sandbox.limits``): moving a process into a cgroup waits for the
kernel (an RCU grace period, up to ~10 ms per run on cgroup v1), which is more than the
rest of the sandbox costs.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Limits", "RunCgroup", "MIN_PROCESSES"]

_CPU_PERIOD_US = 100_000
#: The fewest processes (threads count) a limit may allow: the launcher and the sandbox's
#: own init need a few before the command starts.
MIN_PROCESSES = 16
_CONTROLLERS = ("pids", "memory", "cpu")


@dataclass(frozen=True)
class Limits:
    """What one run may use; ``None`` leaves a resource unlimited."""

    processes: int | None = None
    memory_mb: int | None = None
    cpus: float | None = None

    def __post_init__(self) -> None:
        if self.processes is not None and self.processes < MIN_PROCESSES:
            raise ValueError(f"a process limit must be at least {MIN_PROCESSES} (the sandbox itself needs a few)")
        if self.memory_mb is not None and self.memory_mb <= 0 or self.cpus is not None and self.cpus <= 0:
            raise ValueError("memory and CPU limits must be positive")

    def wanted(self) -> tuple[str, ...]:
        """The controllers these limits need."""
        return tuple(c for c, v in zip(_CONTROLLERS, (self.processes, self.memory_mb, self.cpus), strict=True) if v is not None)

    def describe(self) -> dict[str, object]:
        return {k: v for k, v in (("processes", self.processes), ("memory_mb", self.memory_mb),
                                  ("cpus", self.cpus)) if v is not None}


class RunCgroup:
    """The cgroup(s) of one run: made before it starts, joined by the launcher,
    read and removed after it ends."""

    def __init__(self, version: int, dirs: dict[str, Path], limits: Limits) -> None:
        self.version = version
        #: controller → the run's directory (on v2 every controller shares one)
        self.dirs = dirs
        self.limits = limits
        #: where this process was before :meth:`enter` (to go back)
        self.home_dirs = {controller: path.parent for controller, path in dirs.items()}

    # -- making ----------------------------------------------------------------------

    @classmethod
    def create(cls, limits: Limits) -> tuple[RunCgroup | None, str | None]:
        """The run's cgroup with ``limits`` written, or ``(None, why not)``."""
        wanted = limits.wanted()
        if not wanted:
            return None, None
        name = f"bastion-run-{os.getpid()}-{time.monotonic_ns()}"
        try:
            found = _v2_parent(wanted)
            if found is not None:
                run = cls(2, {c: found / name for c in wanted}, limits)
            else:
                parents = _v1_parents(wanted)
                missing = [c for c in wanted if c not in parents]
                if missing:
                    return None, f"no writable cgroup for {', '.join(missing)}: process, memory and CPU limits not set"
                run = cls(1, {c: parents[c] / name for c in wanted}, limits)
            made = []
            try:
                for path in set(run.dirs.values()):
                    path.mkdir()
                    made.append(path)
            except OSError:
                for path in made:  # none left behind
                    path.rmdir()
                raise
        except OSError as exc:
            return None, f"cgroups not writable here ({exc.strerror or exc}): process, memory and CPU limits not set"
        try:
            run._write_limits()
        except OSError as exc:
            run.remove()
            return None, f"cgroup limits could not be set ({exc.strerror or exc})"
        return run, None

    def _write_limits(self) -> None:
        limits, v2 = self.limits, self.version == 2
        if limits.processes is not None:
            _write(self.dirs["pids"] / "pids.max", str(int(limits.processes)))
        if limits.memory_mb is not None:
            size = str(int(limits.memory_mb) << 20)
            memory = self.dirs["memory"]
            _write(memory / ("memory.max" if v2 else "memory.limit_in_bytes"), size)
            _try_write(memory / ("memory.swap.max" if v2 else "memory.memsw.limit_in_bytes"), "0" if v2 else size)
        if limits.cpus is not None:
            quota = max(1000, int(limits.cpus * _CPU_PERIOD_US))
            cpu = self.dirs["cpu"]
            if v2:
                _write(cpu / "cpu.max", f"{quota} {_CPU_PERIOD_US}")
            else:
                _write(cpu / "cpu.cfs_period_us", str(_CPU_PERIOD_US))
                _write(cpu / "cpu.cfs_quota_us", str(quota))

    # -- joining ---------------------------------------------------------------------

    def joiner(self) -> Callable[[], None]:
        """A ``preexec_fn`` part: the child moves itself into the run's cgroup(s)
        before it execs, so everything it starts is counted from the first fork."""
        procs = [str(path / "cgroup.procs") for path in set(self.dirs.values())]

        def join() -> None:
            _move(os.getpid(), procs)

        return join

    def enter(self) -> None:
        """Move this process into the run's cgroup(s): a child started now begins
        there. For a launcher that starts its child without a ``preexec_fn`` (so
        Python can use vfork); :meth:`leave` right after the start."""
        _move(os.getpid(), [str(path / "cgroup.procs") for path in set(self.dirs.values())])

    def leave(self) -> None:
        """Move this process back where it was (the child stays in the run's cgroup)."""
        try:
            _move(os.getpid(), [str(path / "cgroup.procs") for path in set(self.home_dirs.values())])
        except OSError:
            pass  # then remove() cannot delete the cgroup: it stays, empty once we exit

    # -- afterwards ------------------------------------------------------------------

    def violations(self) -> list[dict[str, str]]:
        """The limits the run hit, as violation entries."""
        found: list[dict[str, str]] = []
        if "pids" in self.dirs and _count(self.dirs["pids"] / "pids.events", "max"):
            found.append({"kind": "limit", "target": "processes",
                          "detail": f"the run reached its limit of {self.limits.processes} processes and threads"})
        if "memory" in self.dirs:
            events = "memory.events" if self.version == 2 else "memory.oom_control"
            if _count(self.dirs["memory"] / events, "oom_kill"):
                found.append({"kind": "limit", "target": "memory",
                              "detail": f"a process was killed at the {self.limits.memory_mb} MB memory limit"})
        return found

    def remove(self) -> None:
        """Kill whatever is left in the run's cgroup(s) and remove them."""
        for path in set(self.dirs.values()):
            for attempt in range(200):
                try:
                    path.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:  # busy: the tree's last processes are still being torn down
                    if attempt % 20 == 19:
                        _kill_members(path)
                    time.sleep(0.0005)


def _write(path: Path, value: str) -> None:
    path.write_text(value)


def _try_write(path: Path, value: str) -> None:
    try:
        _write(path, value)
    except OSError:
        pass  # swap accounting is off on this kernel: the memory limit still holds


def _count(path: Path, key: str) -> int:
    """``key N`` from a flat-keyed cgroup file (``pids.events``, ``memory.events``)."""
    try:
        for line in path.read_text().splitlines():
            name, _, value = line.partition(" ")
            if name == key and value.strip().isdigit():
                return int(value)
    except OSError:
        pass
    return 0


def _move(pid: int, procs_files: list[str]) -> None:
    data = str(pid).encode()
    for path in procs_files:
        fd = os.open(path, os.O_WRONLY)
        try:
            os.write(fd, data)
        finally:
            os.close(fd)


def _kill_members(path: Path) -> None:
    try:
        pids = [int(p) for p in (path / "cgroup.procs").read_text().split()]
    except (OSError, ValueError):
        return
    for pid in pids:
        if pid == os.getpid():
            continue  # never this process (it failed to leave): the cgroup stays instead
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def _own_cgroups() -> dict[str, str]:
    """controller → this process's cgroup path (``""`` is the v2 one)."""
    out: dict[str, str] = {}
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _id, controllers, path = line.split(":", 2)
        for controller in controllers.split(",") if controllers else [""]:
            out[controller] = path
    return out


def _mounts() -> list[tuple[str, str, set[str]]]:
    """(mount point, file system type, options) of the cgroup mounts."""
    out = []
    for line in Path("/proc/self/mounts").read_text().splitlines():
        fields = line.split()
        if len(fields) >= 4 and fields[2] in ("cgroup", "cgroup2"):
            out.append((fields[1], fields[2], set(fields[3].split(","))))
    return out


def _v2_parent(wanted: tuple[str, ...]) -> Path | None:
    """Our v2 cgroup, when it may have children with ``wanted`` controllers."""
    own = _own_cgroups().get("")
    if own is None:
        return None
    for mount, fstype, _options in _mounts():
        if fstype != "cgroup2":
            continue
        parent = Path(mount) / own.lstrip("/")
        try:
            enabled = set((parent / "cgroup.subtree_control").read_text().split())
        except OSError:
            continue
        if set(wanted) <= enabled and os.access(parent, os.W_OK):
            return parent
    return None


def _v1_parents(wanted: tuple[str, ...]) -> dict[str, Path]:
    """controller → our writable v1 cgroup for it."""
    own = _own_cgroups()
    out: dict[str, Path] = {}
    for mount, fstype, options in _mounts():
        if fstype != "cgroup":
            continue
        for controller in wanted:
            if controller in options and controller in own and controller not in out:
                parent = Path(mount) / own[controller].lstrip("/")
                if os.access(parent, os.W_OK):
                    out[controller] = parent
    return out

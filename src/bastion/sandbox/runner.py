"""``Sandbox.run``: one command under OS limits, with a result that says what held.

The runner builds the ``Plan`` (which paths are writable, protected, hidden), picks a
backend (bubblewrap when installed, else Landlock with namespaces), starts the command
with the environment allowlist and rlimits, bridges the network to the proxy when
domains are allowed, reads the output through the cap, kills the whole tree at the
timeout and finally reports violations and what was enforced. It never runs a command
without file-system confinement: when no backend works it raises ``SandboxUnavailable``.
"""

from __future__ import annotations

import marshal
import os
import selectors
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from .. import state
from . import cgroups, limits, quarantine, violations
from .livewatch import CreationWatch
from .plan import Plan, PlanError, build_plan

#: Exit status of a run killed at its timeout (as ``timeout(1)``).
EXIT_TIMEOUT = 124
#: The command could not be started inside the sandbox.
EXIT_SETUP = 125
#: The run was stopped because it made a name git obeys (``Plan.stop_on_create``): the
#: status of a process killed by SIGKILL, which is what the tree gets.
EXIT_STOPPED = 128 + 9

_HERE = os.path.dirname(os.path.abspath(__file__))
_BOOT = "import sys; sys.path.append({here!r}); import {module}; {module}.main()"
_PIPE_SIZE = 1 << 20
_F_SETPIPE_SZ = 1031

OutputSink = Callable[[str, bytes], None]


class SandboxError(RuntimeError):
    """The command did not run: the sandbox could not be set up as required."""


class SandboxUnavailable(SandboxError):
    """No backend can confine the file system on this machine."""


def _run_all(steps: list[Callable[[], None]]) -> Callable[[], None]:
    """One ``preexec_fn`` that runs each step in the child, in order."""

    def run() -> None:
        for step in steps:
            step()

    return run


@dataclass
class RunResult:
    """How a sandboxed command ended: its output, what the sandbox stopped, what it enforced."""

    exit_code: int
    stdout: str
    stderr: str
    truncated: bool
    violations: list[dict[str, str]]
    enforced: dict[str, Any]
    timed_out: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "exit_code": self.exit_code,
            "stdout": self.stdout,
            "stderr": self.stderr,
            "truncated": self.truncated,
            "timed_out": self.timed_out,
            "violations": self.violations,
            "enforced": self.enforced,
        }

    def notes(self) -> list[str]:
        """The readable lines: one per violation, one per thing not enforced."""
        lines = [violations.describe(v) for v in self.violations]
        lines += [f"bastion: sandbox enforced less: {m}" for m in self.enforced.get("missing", ())]
        if self.timed_out:
            lines.append(f"bastion: killed at the {self.enforced.get('timeout')} s timeout")
        if self.truncated:
            lines.append(f"bastion: output truncated to {self.enforced.get('max_output')} bytes per stream")
        return lines


@dataclass
class _Launch:
    """The sandbox's command line and the descriptors it is started with."""

    argv: list[str]
    pass_fds: list[int] = field(default_factory=list)
    close_after_spawn: list[int] = field(default_factory=list)
    info_fd: int | None = None  # bwrap: empty after exit → bubblewrap itself failed
    status_fd: int | None = None  # landlock: a marshal-ed dict of what held


def _shell(command: str) -> list[str]:
    shell = "/bin/bash" if os.path.exists("/bin/bash") else "/bin/sh"
    return [shell, "-c", command]


def _read_all(fd: int | None) -> bytes:
    if fd is None:
        return b""
    os.set_blocking(fd, False)
    chunks = []
    try:
        while True:
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            chunks.append(chunk)
    except BlockingIOError:
        pass
    finally:
        os.close(fd)
    return b"".join(chunks)


def _watch(plan: Plan, missing: list[str]) -> CreationWatch | None:
    """The live watch on the names git obeys (None when there are none, or when inotify
    cannot watch — then they are only taken away after the run, which is said)."""
    if not plan.stop_on_create:
        return None
    stop = set(plan.stop_on_create)
    try:
        return CreationWatch.start({p: link for p, _why, link, _end in plan.watched_protected if p in stop})
    except OSError as exc:
        missing.append(f"no live watch on git's control files ({exc.strerror or exc}): "
                       "one created during the run is taken away only after it")
        return None


def _stopped_for(found: list[dict[str, str]], stopped: list[str], plan: Plan) -> tuple[list[dict[str, str]], bool]:
    """The sweep's violations, with the stop said on the names git obeys, and whether the
    run counts as stopped: it does whenever one of them was made, even if the command
    ended before the kill landed (or inotify could not watch), so the status never
    depends on that race."""
    why = {p: w for p, w, _link, _end in plan.watched_protected}
    live = set(plan.stop_on_create)
    reported = set()
    for item in found:
        if item["target"] in stopped:
            item["detail"] += "; the run was stopped as soon as it appeared"
        elif item["target"] in live:
            item["detail"] += "; the run counts as stopped"
        reported.add(item["target"])
    for path in stopped:
        if path not in reported:  # gone again before the sweep: it was made all the same
            found.append({"kind": "created", "target": path,
                          "detail": f"{why.get(path, 'protected')}; created in the sandbox; "
                                    "the run was stopped as soon as it appeared"})
    return found, bool(stopped) or bool(reported & live)


class Sandbox:
    """Runs commands confined. One instance may run many commands.

    ``backend``: ``auto`` (bubblewrap if installed, else Landlock), ``bwrap`` or
    ``landlock``. ``environ`` is where the allowlisted variables come from (default:
    this process). ``hosts`` maps names to addresses for the proxy (tests).
    ``warn`` gets the readable lines after each run (None: silent). ``protect`` adds
    paths that stay read-only even inside a write root (``bastion run`` adds the audit log).
    ``rlimits_inherited``: the caller has already applied ``limits.RLIMITS`` to its own
    process (``limits.apply_to_self``, as ``bastion run`` does), so children inherit
    them and the launcher can be started with vfork instead of a costlier fork.
    """

    def __init__(
        self,
        *,
        backend: str = "auto",
        home: str | None = None,
        environ: Mapping[str, str] | None = None,
        hosts: Mapping[str, str] | None = None,
        allow_unix_sockets: bool = False,
        credential_globs: Iterable[str] = (),
        protect: Iterable[str] = (),
        warn: TextIO | None = sys.stderr,
        python: str | None = None,
        rlimits_inherited: bool = False,
        limits: cgroups.Limits | None = None,
    ) -> None:
        if backend not in ("auto", "bwrap", "landlock"):
            raise ValueError(f"unknown sandbox backend {backend!r} (expected auto, bwrap or landlock)")
        self.backend = backend
        self.environ = dict(environ if environ is not None else os.environ)
        self.home = home or self.environ.get("HOME") or os.path.expanduser("~")
        self.hosts = dict(hosts or {})
        self.allow_unix_sockets = allow_unix_sockets
        self.credential_globs = tuple(credential_globs)
        self.protect = tuple(protect)
        self.warn = warn
        self.python = python or sys.executable
        self.rlimits_inherited = rlimits_inherited
        #: Processes, memory and CPU for each run's whole tree (cgroups, where writable).
        self.limits = limits if limits is not None else cgroups.Limits()

    # -- choosing a backend ---------------------------------------------------------

    def _backends(self) -> list[str]:
        from . import bwrap, landlock

        have_bwrap = bwrap.find() is not None
        have_landlock = landlock.abi() > 0
        if self.backend == "bwrap":
            if not have_bwrap:
                raise SandboxUnavailable("bubblewrap (bwrap) is not installed")
            return ["bwrap"]
        if self.backend == "landlock":
            if not have_landlock:
                raise SandboxUnavailable("this kernel has no Landlock")
            return ["landlock"]
        order = (["bwrap"] if have_bwrap else []) + (["landlock"] if have_landlock else [])
        if not order:
            raise SandboxUnavailable("neither bubblewrap nor Landlock is available; run 'bastion doctor'")
        return order

    # -- running ----------------------------------------------------------------------

    def run(
        self,
        argv_or_command: str | Sequence[str],
        *,
        cwd: str,
        allow_write: Iterable[str] = (),
        allow_domains: Iterable[str] = (),
        deny_domains: Iterable[str] = (),
        timeout: float = 30,
        max_output: int = 100_000,
        env_allow: Iterable[str] = (),
        deny_read: Iterable[str] = (),
        workspace: str | None = None,
        stdin: int | None = None,
        on_output: OutputSink | None = None,
    ) -> RunResult:
        """Run a shell command string (``bash -c``) or an argv list, confined."""
        if isinstance(argv_or_command, str):
            if not argv_or_command.strip():
                raise ValueError("empty command")
            argv = _shell(argv_or_command)
        else:
            argv = [str(a) for a in argv_or_command]
            if not argv:
                raise ValueError("empty argv")
        if timeout <= 0:
            raise ValueError("timeout must be positive")
        try:
            plan = build_plan(
                cwd,
                workspace=workspace,
                allow_write=allow_write,
                deny_read=deny_read,
                home=self.home,
                env=self.environ,
                credential_globs=self.credential_globs,
                keep_visible=(sys.prefix, sys.base_prefix, os.path.dirname(self.python), _HERE),
                protect=self.protect,
            )
        except PlanError as exc:
            raise SandboxError(str(exc)) from None
        env = limits.filter_env(self.environ, env_allow)
        allowed = [d for d in allow_domains if d]
        denied = [d for d in deny_domains if d]
        backends = self._backends()
        notes: list[str] = list(plan.notes)
        for index, backend in enumerate(backends):
            result = self._run_once(
                backend, plan, argv, env, allowed, denied, timeout, max_output, stdin, on_output, notes
            )
            if result is not None:
                return result
            if index + 1 < len(backends):
                notes.append(f"bubblewrap could not start here; used {backends[index + 1]} instead")
        raise SandboxUnavailable("no sandbox backend could start on this machine; run 'bastion doctor'")

    def _run_once(
        self,
        backend: str,
        plan: Plan,
        argv: list[str],
        env: dict[str, str],
        allowed: list[str],
        denied: list[str],
        timeout: float,
        max_output: int,
        stdin: int | None,
        on_output: OutputSink | None,
        notes: list[str],
    ) -> RunResult | None:
        """One attempt; ``None`` when bubblewrap itself failed before the command ran."""
        from . import seccomp
        from .bwrap import placeholders

        proxy = None
        ctl_parent: socket.socket | None = None
        launch: _Launch | None = None
        group, no_group = cgroups.RunCgroup.create(self.limits)
        proc: subprocess.Popen | None = None
        created: list[dict[str, str]] | None = None
        watch = None
        try:
            dirs = placeholders()
            program = None
            missing: list[str] = []
            if self.allow_unix_sockets:
                missing.append("Unix sockets allowed by settings (sandbox.allowUnixSockets)")
            elif seccomp.supported():
                program = seccomp.program()
            else:
                missing.append("no seccomp filter for this architecture: Unix sockets on the host stay reachable")
            bridge_fd = None
            if allowed:
                from .netproxy import NetProxy, policy_from

                ctl_parent, ctl_child = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
                bridge_fd = ctl_child.detach()
                proxy = NetProxy(policy_from(allowed, denied), hosts=self.hosts)
            watch = _watch(plan, missing)
            if backend == "bwrap":
                launch = self._bwrap_launch(plan, dirs, argv, program, bridge_fd)
            else:
                launch = self._landlock_launch(plan, dirs, argv, env, program, bridge_fd)
            if bridge_fd is not None:
                launch.pass_fds.append(bridge_fd)
                launch.close_after_spawn.append(bridge_fd)
            started = time.monotonic()
            setup = [] if self.rlimits_inherited else [limits.rlimit_setter()]
            entered = False
            if group is not None:
                if setup:
                    setup.append(group.joiner())
                else:  # join around the start instead: no preexec_fn keeps vfork
                    try:
                        group.enter()
                        entered = True
                    except OSError as exc:
                        group.leave()  # from whichever cgroups the move reached
                        group.remove()
                        group, no_group = None, f"could not join the run's cgroup ({exc.strerror or exc}): limits not set"
            try:
                proc = subprocess.Popen(
                    launch.argv,
                    stdin=stdin if stdin is not None else subprocess.DEVNULL,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    env=env,
                    pass_fds=launch.pass_fds,
                    start_new_session=True,
                    # no preexec_fn at all lets Python start the launcher with vfork
                    preexec_fn=_run_all(setup) if setup else None,
                )
            except subprocess.SubprocessError as exc:  # a setup step failed in the child
                raise SandboxError(f"sandbox setup failed before the command started: {exc}") from None
            except BlockingIOError:  # fork refused: the run's process limit is below what starting needs
                raise SandboxError("the sandbox could not start: sandbox.limits.processes is too low") from None
            finally:
                if entered:
                    group.leave()  # type: ignore[union-attr]
                for fd in launch.close_after_spawn:
                    os.close(fd)
            out_cap, err_cap, scanner, timed_out, stopped = self._pump(
                proc, ctl_parent, proxy, started + timeout, max_output, on_output, watch
            )
            returncode = proc.wait()
            created, was_stopped = _stopped_for(
                quarantine.sweep(plan, state.state_dir(self.environ) / "quarantine"), stopped, plan
            )
            info = _read_all(launch.info_fd)
            status_line = _read_all(launch.status_fd)
            launch.info_fd = launch.status_fd = None
            stderr_bytes = err_cap.value()
            if backend == "bwrap" and not info and not timed_out and stderr_bytes.startswith(b"bwrap: "):
                # bubblewrap failed before the command ran (it reports on --info-fd once set up)
                why = stderr_bytes.decode(errors="replace").strip().splitlines()[0]
                if self.backend != "auto":
                    raise SandboxError(f"bubblewrap could not start a sandbox: {why}")
                notes.append(f"bubblewrap failed: {why}")
                return None
            if backend == "bwrap" and returncode == 1 and stderr_bytes.startswith(b"bwrap: execvp "):
                returncode = 127 if b"No such file" in stderr_bytes.split(b"\n", 1)[0] else 126  # as a shell
            status: dict[str, Any] = {}
            if status_line:
                try:
                    loaded = marshal.loads(status_line)
                    status = loaded if isinstance(loaded, dict) else {}
                except (ValueError, EOFError, TypeError):
                    status = {}
            if status.get("error"):
                raise SandboxError(f"sandbox setup failed: {status['error']}")
            enforced = self._enforced(backend, plan, status, allowed, program is not None, timeout, max_output)
            if group is not None:
                enforced["cgroup_limits"] = self.limits.describe()
            elif no_group:
                missing.append(no_group)
            enforced["missing"] = notes + missing + list(status.get("missing", ())) + enforced.get("missing", [])
            stdout_text = out_cap.value().decode("utf-8", "replace")
            stderr_text = stderr_bytes.decode("utf-8", "replace")
            found = violations.merge(
                created,
                group.violations() if group is not None else (),
                proxy.violations if proxy is not None else (),
                violations.from_stderr(scanner.text(), plan, network=bool(allowed)),
            )
            result = RunResult(
                exit_code=EXIT_TIMEOUT if timed_out else EXIT_STOPPED if was_stopped else limits.exit_status(returncode),
                stdout=stdout_text,
                stderr=stderr_text,
                truncated=out_cap.truncated or err_cap.truncated,
                violations=found,
                enforced=enforced,
                timed_out=timed_out,
            )
            if self.warn is not None:
                for line in result.notes():
                    print(line, file=self.warn)
            return result
        finally:
            if watch is not None:
                watch.close()
            if proc is not None and created is None:  # interrupted: the tree is killed, then swept
                limits.kill_group(proc.pid)
                try:
                    proc.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    pass
                for item in quarantine.sweep(plan, state.state_dir(self.environ) / "quarantine"):
                    if self.warn is not None:
                        print(violations.describe(item), file=self.warn)
            if group is not None:
                group.remove()
            if proxy is not None:
                proxy.close()
            if ctl_parent is not None:
                ctl_parent.close()
            for pipe_fd in (launch.info_fd, launch.status_fd) if launch is not None else ():
                if pipe_fd is not None:
                    os.close(pipe_fd)

    # -- backends -----------------------------------------------------------------------

    def _entry(self, argv: list[str], bridge_fd: int | None) -> list[str]:
        if bridge_fd is None:
            return argv
        boot = _BOOT.format(here=_HERE, module="inside")
        return [self.python, "-I", "-S", "-c", boot, str(bridge_fd), "--", *argv]

    def _bwrap_launch(self, plan: Plan, dirs: Any, argv: list[str], program: bytes | None, bridge_fd: int | None) -> _Launch:
        from . import bwrap

        launch = _Launch(argv=[])
        seccomp_fd = None
        if program is not None:
            read_end, write_end = os.pipe()
            os.write(write_end, program)
            os.close(write_end)
            seccomp_fd = read_end
            launch.pass_fds.append(read_end)
            launch.close_after_spawn.append(read_end)
        info_read, info_write = os.pipe()
        launch.pass_fds.append(info_write)
        launch.close_after_spawn.append(info_write)
        launch.info_fd = info_read
        launch.argv = bwrap.build_argv(
            plan, dirs, self._entry(argv, bridge_fd),
            bwrap=bwrap.find() or "bwrap", seccomp_fd=seccomp_fd, info_fd=info_write,
        )
        return launch

    def _landlock_launch(
        self, plan: Plan, dirs: Any, argv: list[str], env: dict[str, str], program: bytes | None, bridge_fd: int | None
    ) -> _Launch:
        status_read, status_write = os.pipe()
        sources = {"empty": dirs.empty_dir, "hide-dir": dirs.denied_dir, "hide-file": dirs.denied_file}
        binds: list[dict[str, Any]] = []
        for what, path in plan.mounts():
            src = sources.get(what, path)
            binds.append({"src": src, "dst": path, "ro": what != "rw",
                          "dir": what in ("empty", "hide-dir") or os.path.isdir(src)})
        spec = {
            "ppid": os.getpid(),
            "argv": argv,
            "cwd": plan.cwd,
            "env": env,
            "binds": binds,
            "write": ["/tmp", *plan.write_roots, *plan.rewritable],
            "seccomp": program.hex() if program is not None else None,
            "status_fd": status_write,
            "bridge_fd": bridge_fd,
        }
        # the spec travels in a memory file, not on the command line, where every
        # process on the machine could read it
        spec_fd = os.memfd_create("bastion-sandbox-spec", os.MFD_CLOEXEC)
        os.write(spec_fd, marshal.dumps(spec))
        os.lseek(spec_fd, 0, os.SEEK_SET)
        boot = _BOOT.format(here=_HERE, module="landlock")
        return _Launch(
            argv=[self.python, "-I", "-S", "-c", boot, str(spec_fd)],
            pass_fds=[status_write, spec_fd],
            close_after_spawn=[status_write, spec_fd],
            status_fd=status_read,
        )

    # -- output and time ----------------------------------------------------------------

    def _pump(
        self,
        proc: subprocess.Popen,
        ctl: socket.socket | None,
        proxy: Any,
        deadline: float,
        max_output: int,
        on_output: OutputSink | None,
        watch: CreationWatch | None = None,
    ) -> tuple[limits.OutputCap, limits.OutputCap, violations.LineScanner, bool, list[str]]:
        """Read both streams through their caps until they close, the time is up, or
        ``watch`` sees a name git obeys appear (then the tree is killed at once)."""
        caps = {"stdout": limits.OutputCap(max_output), "stderr": limits.OutputCap(max_output)}
        scanner = violations.LineScanner()
        selector = selectors.DefaultSelector()
        for name, stream in (("stdout", proc.stdout), ("stderr", proc.stderr)):
            assert stream is not None
            try:
                import fcntl

                fcntl.fcntl(stream.fileno(), _F_SETPIPE_SZ, _PIPE_SIZE)
            except OSError:
                pass
            selector.register(stream.fileno(), selectors.EVENT_READ, name)
        if ctl is not None:
            selector.register(ctl.fileno(), selectors.EVENT_READ, "ctl")
        if watch is not None:
            selector.register(watch.fileno(), selectors.EVENT_READ, "watch")
        stopped: list[str] = []
        # the launcher's exit is an event too (pidfd): no polling, no sleeping
        pidfd = os.pidfd_open(proc.pid)
        selector.register(pidfd, selectors.EVENT_READ, "exit")
        open_streams = 2
        exited = timed_out = False
        grace_until: float | None = None
        try:
            while open_streams or not exited:
                now = time.monotonic()
                if not timed_out and not stopped and now >= deadline:
                    timed_out = True
                    limits.kill_group(proc.pid)
                    grace_until = now + 2.0
                if grace_until is not None and now >= grace_until:
                    break  # a writer outlived the launcher (no PID namespace): stop reading
                wait = (grace_until if grace_until is not None else deadline) - now
                ready = selector.select(timeout=max(0.0, min(wait, 1.0)))
                ready.sort(key=lambda item: item[0].data != "watch")  # before any output is read
                for key, _ in ready:
                    name = key.data
                    if name == "watch":
                        hits = [p for p in watch.created() if p not in stopped]  # type: ignore[union-attr]
                        if hits and not stopped and not timed_out:
                            limits.kill_group(proc.pid)
                            grace_until = time.monotonic() + 2.0
                        stopped.extend(hits)
                        continue
                    if name == "exit":
                        selector.unregister(key.fd)
                        exited = True
                        if open_streams and grace_until is None:
                            grace_until = time.monotonic() + 0.5
                        continue
                    if name == "ctl":
                        selector.unregister(key.fd)
                        self._start_proxy(ctl, proxy)
                        continue
                    data = os.read(key.fd, 1 << 20)
                    if not data:
                        selector.unregister(key.fd)
                        open_streams -= 1
                        continue
                    if name == "stderr":
                        scanner.feed(data)
                    live = caps[name].feed(data)
                    if on_output is not None and live:
                        on_output(name, live)
            if watch is not None:  # what appeared as the command ended, before its event was read
                stopped.extend(p for p in watch.created() if p not in stopped)
        finally:
            selector.close()
            os.close(pidfd)
            if timed_out or not exited:
                limits.kill_group(proc.pid)
            for stream in (proc.stdout, proc.stderr):
                if stream is not None:
                    stream.close()
        if on_output is not None:
            for name, cap in caps.items():
                rest = cap.rest()
                if rest:
                    on_output(name, rest)
        return caps["stdout"], caps["stderr"], scanner, timed_out, stopped

    @staticmethod
    def _start_proxy(ctl: socket.socket | None, proxy: Any) -> None:
        if ctl is None or proxy is None:
            return
        try:
            _msg, fds, _flags, _addr = socket.recv_fds(ctl, 16, 1)
        except OSError:
            return
        if fds:
            proxy.serve(socket.socket(fileno=fds[0]))

    # -- reporting ------------------------------------------------------------------------

    @staticmethod
    def _enforced(
        backend: str,
        plan: Plan,
        status: Mapping[str, Any],
        allowed: list[str],
        seccomp_on: bool,
        timeout: float,
        max_output: int,
    ) -> dict[str, Any]:
        if backend == "bwrap":
            pid_ns = net_ns = True
            seccomp_held = seccomp_on
        else:
            pid_ns = bool(status.get("pid_namespace"))
            net_ns = bool(status.get("net_namespace"))
            seccomp_held = bool(status.get("seccomp"))
        if net_ns:
            network = "proxy" if allowed else "none"
        elif status.get("tcp_blocked"):
            network = "tcp-blocked"
        else:
            network = "host"
        enforced: dict[str, Any] = {
            "backend": backend,
            "write_roots": list(plan.write_roots),
            "private_tmp": True,
            "protected_paths": len(plan.readonly) + len(plan.create_readonly),
            "hidden_paths": len(plan.hidden),
            "network": network,
            "allowed_domains": allowed,
            "pid_namespace": pid_ns,
            "seccomp_unix_sockets": seccomp_held,
            "timeout": timeout,
            "max_output": max_output,
            "env_allowlist": True,
            "cwd_locked": True,
            "rlimits": dict(limits.RLIMITS),
        }
        if backend == "landlock":
            enforced["landlock_abi"] = status.get("landlock_abi", 0)
        if os.geteuid() == 0:
            enforced["rlimits_note"] = "RLIMIT_NPROC does not bind root"
        return enforced



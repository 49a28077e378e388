"""Peel exec-forwarding wrappers off a command, knowing each wrapper's own options.

``sudo -u deploy timeout -s KILL 5 nice -n 10 rm -rf build`` runs ``rm -rf build``; rules
and checks must see that, plus the fact that it runs under ``sudo``. Each wrapper is a row
in :data:`WRAPPERS` (which options take a value, how many operands precede the command,
which options carry a shell string or a directory). Unknown options are not guessed at:
they are reported in ``Peeled.problems`` and the parser treats the command as too
complex.

This module does generic peeling only. What a command *means* (``python -c``,
``awk 'system()'``, ``git -c core.pager=…``) is the catalog's business. Shell strings
(``bash -c``, ``eval``, ``su -c``, ``watch``, ``env -S`` …) are returned in
``Peeled.shell`` for the parser to parse again; ``find -exec`` commands are found by :func:`find_exec_commands`.

``xargs`` and ``parallel`` run their command with extra arguments read from stdin, so
the effective argv is a prefix of what runs (``origin == "xargs"`` says so).
"""

from __future__ import annotations

from .gnu import gnu_name

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = [
    "WrapperSpec",
    "WRAPPERS",
    "SHELLS",
    "NON_SUGGESTABLE",
    "Peeled",
    "peel",
    "shell_string",
    "shell_input",
    "wrapper_options",
    "WRAPPER_NAMES",
    "EXEC_RUNNERS",
    "find_exec_commands",
    "is_assignment",
]


def _opts(*names: str) -> frozenset[str]:
    return frozenset(names)


class WrapperSpec:
    """How one wrapper reads its own arguments before the command it runs.

    ``with_arg``: options followed by a value (``-u USER`` / ``-uUSER`` / ``--user=USER``).
    ``flags``: options without a value. ``attached``: options whose value may only be
    attached (``xargs -i{}``, ``sudo -hHOST``). ``positionals``: operands before the
    command (``timeout DURATION``). ``assignments``: ``NAME=VALUE`` operands allowed
    before the command. ``cwd_opts``/``string_opts``/``shell_opts``/``no_exec_opts``:
    options that set the directory, carry a shell command string, start a shell, or mean
    "nothing is executed". ``rest_is_string``: the command operands are joined by spaces
    and run by a shell (``watch``). ``default``: what runs when no command is given.
    ``any_long``: every ``--option`` is a flag (``firejail``). ``numeric``: ``-N`` is an
    option (``nice -10``). An option the row does not name is a problem: the command asks.

    A plain class, its rows never changed: some sixty are made when the module loads, on
    every shell decision, and a frozen dataclass costs several times more to define and fill.
    """

    def __init__(self, *, with_arg: frozenset[str] = frozenset(), flags: frozenset[str] = frozenset(),
                 attached: frozenset[str] = frozenset(), positionals: int = 0, assignments: bool = False,
                 cwd_opts: frozenset[str] = frozenset(), string_opts: frozenset[str] = frozenset(),
                 shell_opts: frozenset[str] = frozenset(), no_exec_opts: frozenset[str] = frozenset(),
                 rest_is_string: bool = False, argv_opts: frozenset[str] = frozenset(), default: tuple[str, ...] = (),
                 any_long: bool = False, numeric: bool = False, origin: str | None = None,
                 one_word_is_string: bool = False, opaque_opts: frozenset[str] = frozenset(),
                 subcommands: Mapping[str, WrapperSpec] | None = None, separators: frozenset[str] = frozenset(),
                 typed_keys: bool = False, literal_opts: frozenset[str] = frozenset()) -> None:
        self.with_arg = with_arg
        self.flags = flags
        self.attached = attached
        self.positionals = positionals
        self.assignments = assignments
        self.cwd_opts = cwd_opts
        self.string_opts = string_opts
        self.shell_opts = shell_opts
        self.no_exec_opts = no_exec_opts
        self.rest_is_string = rest_is_string
        self.argv_opts = argv_opts
        self.default = default
        self.any_long = any_long
        self.numeric = numeric
        self.origin = origin
        #: ``tmux new -d 'cmd'``: one command word is a shell string, several are an argv.
        self.one_word_is_string = one_word_is_string
        #: Options whose value names a program or a file of commands bastion does not read
        #: (``screen -s SHELL``, ``tmux -f CONF``): reported as problems (the command asks).
        self.opaque_opts = opaque_opts
        #: Subcommands that run a command (``tmux new-session``), each with its own options;
        #: any other subcommand runs nothing the wrapper knows of (the catalog judges it).
        self.subcommands: Mapping[str, WrapperSpec] = subcommands if subcommands is not None else {}
        #: Words that end the command (``tmux … \;`` starts another tmux command).
        self.separators = separators
        #: The operands are keys typed into a shell (``tmux send-keys 'cmd' Enter``): read as
        #: the shell string they type (``literal_opts``: every operand is text, no key names).
        self.typed_keys = typed_keys
        self.literal_opts = literal_opts


_SUDO = WrapperSpec(
    with_arg=_opts(
        "-C", "--close-from", "-D", "--chdir", "-g", "--group", "-p", "--prompt", "-R", "--chroot",
        "-r", "--role", "-t", "--type", "-T", "--command-timeout", "-U", "--other-user", "-u",
        "--user", "-a", "-c", "--login-class",
    ),
    flags=_opts(
        "-A", "--askpass", "-B", "--bell", "-b", "--background", "-E", "--preserve-env", "-e",
        "--edit", "-H", "--set-home", "-i", "--login", "-K", "--remove-timestamp", "-k",
        "--reset-timestamp", "-l", "--list", "-N", "--no-update", "-n", "--non-interactive",
        "-P", "--preserve-groups", "-S", "--stdin", "-s", "--shell", "-V", "--version", "-v",
        "--validate", "--help",
    ),
    attached=_opts("-h", "--host", "--preserve-env"),
    assignments=True,
    cwd_opts=_opts("-D", "--chdir"),
    shell_opts=_opts("-s", "--shell", "-i", "--login"),
    no_exec_opts=_opts("-l", "--list", "-V", "--version", "-v", "--validate", "-K", "--help"),
    default=(),
)

_ENV = WrapperSpec(
    with_arg=_opts("-u", "--unset", "-C", "--chdir", "-S", "--split-string"),
    flags=_opts("-i", "--ignore-environment", "-0", "--null", "-v", "--debug", "-"),
    attached=_opts("--block-signal", "--default-signal", "--ignore-signal", "--list-signal-handling"),
    assignments=True,
    cwd_opts=_opts("-C", "--chdir"),
    string_opts=_opts("-S", "--split-string"),
)

_TMUX_NEW = WrapperSpec(  # new-session: [-AdDEPX] [-c dir] [-e env] [-F fmt] [-n win] [-s name] [-t group] [-x w] [-y h]
    with_arg=_opts("-c", "-e", "-f", "-F", "-n", "-s", "-t", "-x", "-y"),
    flags=_opts("-A", "-d", "-D", "-E", "-P", "-X"),
    cwd_opts=_opts("-c"),
    one_word_is_string=True,
    separators=_opts(";"),
)
_TMUX_WINDOW = WrapperSpec(  # new-window / split-window / respawn-*: the same layout, other letters
    with_arg=_opts("-c", "-e", "-F", "-l", "-n", "-p", "-t"),
    flags=_opts("-a", "-b", "-d", "-f", "-h", "-I", "-k", "-P", "-S", "-v", "-Z"),
    cwd_opts=_opts("-c"),
    one_word_is_string=True,
    separators=_opts(";"),
)
_TMUX_RUN = WrapperSpec(  # run-shell [-b] [-d delay] [-t pane] 'cmd' (-C: a tmux command, not shell)
    with_arg=_opts("-d", "-t"),
    flags=_opts("-b", "-C"),
    no_exec_opts=_opts("-C"),
    rest_is_string=True,
    separators=_opts(";"),
)
_TMUX_KEYS = WrapperSpec(  # send-keys [-FHlMRX] [-N count] [-t pane] KEY…: typed into the pane's shell
    with_arg=_opts("-N", "-t"),
    flags=_opts("-F", "-H", "-K", "-l", "-M", "-R", "-X"),
    no_exec_opts=_opts("-H", "-M", "-X"),
    typed_keys=True,
    literal_opts=_opts("-l"),
    separators=_opts(";"),
)
_BOX = WrapperSpec(  # busybox / toybox APPLET ARGS…; their own options only list or install applets
    flags=_opts("--help", "--version", "--list", "--list-full", "--install", "--long"),
    no_exec_opts=_opts("--help", "--version", "--list", "--list-full", "--install", "--long"),
)

#: Every wrapper bastion peels, by command name.
WRAPPERS: dict[str, WrapperSpec] = {
    "sudo": _SUDO,
    "doas": WrapperSpec(
        with_arg=_opts("-a", "-C", "-u"),
        flags=_opts("-L", "-n", "-s"),
        shell_opts=_opts("-s"),
        no_exec_opts=_opts("-C", "-L"),
        default=("sh",),
    ),
    "pkexec": WrapperSpec(
        with_arg=_opts("--user", "-u"),
        flags=_opts("--disable-internal-agent", "--keep-cwd", "--help", "--version"),
        default=("sh",),
    ),
    "env": _ENV,
    "nice": WrapperSpec(with_arg=_opts("-n", "--adjustment"), numeric=True),
    "ionice": WrapperSpec(
        with_arg=_opts("-c", "--class", "-n", "--classdata", "-p", "--pid", "-P", "--pgid", "-u", "--uid"),
        flags=_opts("-t", "--ignore"),
        no_exec_opts=_opts("-p", "--pid", "-P", "--pgid", "-u", "--uid"),
    ),
    "nohup": WrapperSpec(flags=_opts("--help", "--version")),
    "timeout": WrapperSpec(
        with_arg=_opts("-s", "--signal", "-k", "--kill-after"),
        flags=_opts("--preserve-status", "--foreground", "-v", "--verbose", "-f", "-p"),
        positionals=1,
    ),
    "time": WrapperSpec(
        with_arg=_opts("-f", "--format", "-o", "--output"),
        flags=_opts("-a", "--append", "-p", "--portability", "-v", "--verbose", "-q", "--quiet"),
    ),
    "stdbuf": WrapperSpec(with_arg=_opts("-i", "--input", "-o", "--output", "-e", "--error")),
    "command": WrapperSpec(flags=_opts("-p", "-v", "-V"), no_exec_opts=_opts("-v", "-V")),
    "builtin": WrapperSpec(),
    "exec": WrapperSpec(with_arg=_opts("-a"), flags=_opts("-c", "-l")),
    "setsid": WrapperSpec(flags=_opts("-c", "--ctty", "-f", "--fork", "-w", "--wait")),
    "chroot": WrapperSpec(
        with_arg=_opts("--userspec", "--groups"),
        flags=_opts("--skip-chdir"),
        positionals=1,
        default=("sh",),
    ),
    "watch": WrapperSpec(
        with_arg=_opts("-n", "--interval", "-q", "--equexit"),
        flags=_opts(
            "-b", "--beep", "-c", "--color", "-C", "--no-color", "-e", "--errexit", "-g", "--chgexit",
            "-p", "--precise", "-t", "--no-title", "-w", "--no-wrap", "-r", "--no-rerun",
            "-x", "--exec",
        ),
        attached=_opts("-d", "--differences"),
        rest_is_string=True,
        argv_opts=_opts("-x", "--exec"),
    ),
    "script": WrapperSpec(
        with_arg=_opts(
            "-c", "--command", "-E", "--echo", "-I", "--log-in", "-O", "--log-out", "-B", "--log-io",
            "-T", "--log-timing", "-m", "--logging-format",
        ),
        flags=_opts("-a", "--append", "-e", "--return", "-f", "--flush", "-q", "--quiet"),
        attached=_opts("-t", "--timing"),
        string_opts=_opts("-c", "--command"),
    ),
    "unbuffer": WrapperSpec(flags=_opts("-p")),
    "xargs": WrapperSpec(
        with_arg=_opts(
            "-a", "--arg-file", "-d", "--delimiter", "-E", "-I", "-L", "--max-lines", "-n",
            "--max-args", "-P", "--max-procs", "-s", "--max-chars", "--process-slot-var",
        ),
        flags=_opts(
            "-0", "--null", "-o", "--open-tty", "-p", "--interactive", "-r", "--no-run-if-empty",
            "-t", "--verbose", "-x", "--exit", "--show-limits",
        ),
        attached=_opts("-e", "--eof", "-i", "--replace", "-l"),
        origin="xargs",
    ),
    "caffeinate": WrapperSpec(with_arg=_opts("-t", "-w"), flags=_opts("-d", "-i", "-m", "-s", "-u")),
    "proxychains": WrapperSpec(with_arg=_opts("-f"), flags=_opts("-q")),
    "proxychains4": WrapperSpec(with_arg=_opts("-f"), flags=_opts("-q")),
    "torsocks": WrapperSpec(
        with_arg=_opts("-u", "--user", "-p", "--pass", "-a", "--address", "-P", "--port"),
        flags=_opts("-i", "--isolate", "-d", "--debug", "-q", "--quiet", "--shell"),
        shell_opts=_opts("--shell"),
    ),
    "strace": WrapperSpec(
        with_arg=_opts(
            "-e", "-o", "-p", "-s", "-u", "-E", "-a", "-b", "-I", "-O", "-P", "-S", "-X", "-U",
            "--output", "--attach", "--string-limit", "--user", "--env", "--columns", "--trace",
            "--signal", "--status", "--trace-path", "--summary-sort-by", "--const-print-style",
            "--detach-on", "--interruptible",
        ),
        flags=_opts(
            "-c", "-C", "-d", "-D", "-DD", "-f", "-F", "-h", "-i", "-k", "-n", "-q", "-r", "-t",
            "-T", "-v", "-V", "-w", "-x", "-y", "-z", "-Z", "--follow-forks", "--output-separately",
            "--summary-only", "--summary", "--quiet", "--relative-timestamps", "--absolute-timestamps",
            "--syscall-times", "--no-abbrev", "--decode-fds", "--successful-only", "--failed-only",
            "--seccomp-bpf", "--stack-traces",
        ),
        no_exec_opts=_opts("-p", "--attach"),
    ),
    "ltrace": WrapperSpec(
        with_arg=_opts("-a", "-A", "-D", "-e", "-F", "-l", "-n", "-o", "-p", "-s", "-u", "-w", "-x", "-X",
                       "--align", "--output", "--library", "--indent"),
        flags=_opts("-b", "-c", "-C", "-f", "-h", "-i", "-L", "-r", "-S", "-t", "-tt", "-ttt", "-T", "-V",
                    "--demangle", "--no-signals"),
        no_exec_opts=_opts("-p"),
    ),
    "catchsegv": WrapperSpec(),
    "coproc": WrapperSpec(),
    "firejail": WrapperSpec(any_long=True),
    "eatmydata": WrapperSpec(),
    "nocache": WrapperSpec(),
    "chronic": WrapperSpec(flags=_opts("-e", "-v")),
    "fakeroot": WrapperSpec(
        with_arg=_opts("-l", "--lib", "--faked", "-s", "-i", "-b"),
        flags=_opts("-u", "--unknown-is-real", "-h", "-v", "--version", "--help"),
    ),
    "runuser": WrapperSpec(
        with_arg=_opts("-u", "--user", "-g", "--group", "-G", "--supp-group", "-s", "--shell",
                       "-w", "--whitelist-environment", "-c", "--command", "--session-command"),
        flags=_opts("-l", "--login", "-m", "-p", "--preserve-environment", "-f", "--fast", "-P", "--pty", "-"),
        string_opts=_opts("-c", "--command", "--session-command"),
    ),
    "su": WrapperSpec(
        with_arg=_opts("-c", "--command", "--session-command", "-s", "--shell", "-g", "--group",
                       "-G", "--supp-group", "-w", "--whitelist-environment"),
        flags=_opts("-l", "--login", "-m", "-p", "--preserve-environment", "-f", "--fast", "-P", "--pty", "-"),
        string_opts=_opts("-c", "--command", "--session-command"),
    ),
    # taskset [-a] MASK CMD / taskset -c LIST CMD: -c only says how the first operand reads
    "taskset": WrapperSpec(
        flags=_opts("-a", "--all-tasks", "-c", "--cpu-list", "-p", "--pid", "-h", "--help", "-V", "--version"),
        positionals=1,
        no_exec_opts=_opts("-p", "--pid", "-h", "--help", "-V", "--version"),
    ),
    # chrt [POLICY] PRIORITY CMD; chrt -p [PRIO] PID and chrt -m run nothing
    "chrt": WrapperSpec(
        with_arg=_opts("-T", "--sched-runtime", "-P", "--sched-period", "-D", "--sched-deadline"),
        flags=_opts(
            "-a", "--all-tasks", "-b", "--batch", "-d", "--deadline", "-f", "--fifo", "-i", "--idle", "-o",
            "--other", "-r", "--rr", "-R", "--reset-on-fork", "-v", "--verbose", "-p", "--pid", "-m", "--max",
            "-h", "--help", "-V", "--version",
        ),
        positionals=1,
        no_exec_opts=_opts("-p", "--pid", "-m", "--max", "-h", "--help", "-V", "--version"),
    ),
    # valgrind's own options are all --name=value
    "valgrind": WrapperSpec(
        flags=_opts("-q", "--quiet", "-v", "--verbose", "-h", "--help", "--help-debug", "--version", "-d"),
        any_long=True,
        no_exec_opts=_opts("-h", "--help", "--help-debug", "--version"),
        opaque_opts=_opts("--db-command", "--vgdb-prefix"),
    ),
    # unshare [NAMESPACES] [CMD]: no command runs the user's shell
    "unshare": WrapperSpec(
        with_arg=_opts(
            "--propagation", "--setgroups", "-R", "--root", "-w", "--wd", "-S", "--setuid", "-G", "--setgid",
            "--map-user", "--map-group", "--map-users", "--map-groups", "--monotonic", "--boottime",
        ),
        flags=_opts(
            "-m", "--mount", "-u", "--uts", "-i", "--ipc", "-n", "--net", "-p", "--pid", "-U", "--user", "-C",
            "--cgroup", "-T", "--time", "-f", "--fork", "-r", "--map-root-user", "-c", "--map-current-user",
            "--map-auto", "--keep-caps", "--mount-proc", "--kill-child", "--mount-binfmt", "-l", "--load-interp",
            "-h", "--help", "-V", "--version",
        ),
        cwd_opts=_opts("-w", "--wd"),
        no_exec_opts=_opts("-h", "--help", "-V", "--version"),
        default=("sh",),
    ),
    # systemd-run [OPTIONS] CMD: a transient unit (now, or later with --on-*)
    "systemd-run": WrapperSpec(
        with_arg=_opts(
            "-u", "--unit", "-p", "--property", "--description", "--slice", "-E", "--setenv", "--uid", "--gid",
            "--nice", "--working-directory", "-M", "--machine", "-H", "--host", "--on-active", "--on-boot",
            "--on-startup", "--on-unit-active", "--on-unit-inactive", "--on-calendar", "--timer-property",
            "--path-property", "--socket-property", "--service-type", "--expand-environment", "--json",
        ),
        flags=_opts(
            "--user", "--system", "--scope", "-r", "--remain-after-exit", "-t", "--pty", "-P", "--pipe", "-q",
            "--quiet", "-G", "--collect", "--wait", "--no-block", "--no-ask-password", "--send-sighup", "-d",
            "--same-dir", "-S", "--shell", "--slice-inherit", "--on-clock-change", "--on-timezone-change",
            "--ignore-failure", "-v", "--verbose", "-h", "--help", "--version",
        ),
        cwd_opts=_opts("--working-directory"),
        shell_opts=_opts("-S", "--shell"),
        no_exec_opts=_opts("-h", "--help", "--version"),
    ),
    # setpriv [CREDENTIALS] CMD
    "setpriv": WrapperSpec(
        with_arg=_opts(
            "--groups", "--inh-caps", "--ambient-caps", "--bounding-set", "--rgid", "--egid", "--regid",
            "--ruid", "--euid", "--reuid", "--securebits", "--pdeathsig", "--selinux-label",
            "--apparmor-profile", "--landlock-access", "--landlock-rule", "--seccomp-filter",
        ),
        flags=_opts(
            "--clear-groups", "--init-groups", "--keep-groups", "--no-new-privs", "--reset-env", "-d", "--dump",
            "--list-caps", "-h", "--help", "-V", "--version",
        ),
        no_exec_opts=_opts("-d", "--dump", "--list-caps", "-h", "--help", "-V", "--version"),
    ),
    # nsenter [NAMESPACES] [CMD]: -m/-u/-i/-n/-p/-C/-T/-U/-r/-w take an optional attached value
    "nsenter": WrapperSpec(
        with_arg=_opts("-t", "--target", "-S", "--setuid", "-G", "--setgid", "-W", "--wdns", "--env"),
        flags=_opts("-a", "--all", "-F", "--no-fork", "-Z", "--follow-context", "-c", "--join-cgroup",
                    "--preserve-credentials", "--keep-caps", "-e", "-h", "--help", "-V", "--version"),
        attached=_opts("-m", "--mount", "-u", "--uts", "-i", "--ipc", "-n", "--net", "-p", "--pid", "-C",
                       "--cgroup", "-T", "--time", "-U", "--user", "-r", "--root", "-w", "--wd"),
        no_exec_opts=_opts("-h", "--help", "-V", "--version"),
        default=("sh",),
    ),
    "busybox": _BOX,
    "toybox": _BOX,
    # screen [-dmS NAME] [CMD ARGS…]: the command is an argv; -r/-x/-ls/-X act on existing sessions
    "screen": WrapperSpec(
        with_arg=_opts("-S", "-c", "-e", "-h", "-p", "-s", "-t", "-T"),
        flags=_opts(
            "-a", "-A", "-d", "-D", "-m", "-r", "-R", "-x", "-X", "-U", "-q", "-Q", "-i", "-l", "-ln", "-L", "-O",
            "-f", "-fn", "-fa", "-ls", "-list", "-wipe", "-v", "--version", "--help",
        ),
        no_exec_opts=_opts("-r", "-R", "-x", "-X", "-Q", "-ls", "-list", "-wipe", "-v", "--version", "--help"),
        # -L logs the session to a file (``-Logfile FILE``, or FILE after -L in old versions)
        opaque_opts=_opts("-s", "-c", "-L"),
    ),
    # tmux [GLOBAL] SUBCOMMAND …: -c runs a shell string like ``sh -c``
    "tmux": WrapperSpec(
        with_arg=_opts("-c", "-f", "-L", "-S", "-T"),
        flags=_opts("-2", "-C", "-CC", "-D", "-l", "-N", "-u", "-v", "-vv", "-V"),
        string_opts=_opts("-c"),
        no_exec_opts=_opts("-V"),
        opaque_opts=_opts("-f"),
        subcommands={
            "new-session": _TMUX_NEW, "new": _TMUX_NEW,
            "new-window": _TMUX_WINDOW, "neww": _TMUX_WINDOW,
            "split-window": _TMUX_WINDOW, "splitw": _TMUX_WINDOW,
            "respawn-pane": _TMUX_WINDOW, "respawnp": _TMUX_WINDOW,
            "respawn-window": _TMUX_WINDOW, "respawnw": _TMUX_WINDOW,
            "run-shell": _TMUX_RUN, "run": _TMUX_RUN,
            "send-keys": _TMUX_KEYS, "send": _TMUX_KEYS,
        },
    ),
}

#: Wrapper names with their own handler (option layout differs from the table's model).
_SPECIAL = frozenset({"flock", "sg", "parallel", "su", "runuser", "eval"})

#: Every name :func:`peel` may remove (a quick test before peeling).
WRAPPER_NAMES: frozenset[str] = frozenset(WRAPPERS) | _SPECIAL

#: Commands that run other commands given in their arguments (``find -exec``, ``fd -x``).
EXEC_RUNNERS: frozenset[str] = frozenset({"find", "gfind", "bfs", "fd", "fdfind"})

#: Shells whose ``-c`` string is parsed again (with the option that carries it).
SHELLS: frozenset[str] = frozenset(
    {"sh", "bash", "zsh", "dash", "ksh", "mksh", "pdksh", "ash", "fish", "csh", "tcsh", "yash", "posh", "rbash"}
)
_SHELL_LONG_WITH_ARG = _opts("--rcfile", "--init-file")
_FISH_STRING = _opts("-c", "--command", "-C", "--init-command")

#: Prefixes no suggested allow rule may consist of (spec 002 §12.6.4): they run anything.
NON_SUGGESTABLE: frozenset[str] = frozenset(
    {"sh", "bash", "zsh", "fish", "csh", "tcsh", "ksh", "dash", "cmd", "powershell", "pwsh",
     "env", "xargs", "nice", "stdbuf", "nohup", "timeout", "time", "sudo", "doas", "pkexec",
     "eval", "exec", "command", "builtin", "su", "runuser", "watch", "setsid", "chroot", "flock",
     "parallel", "busybox", "script", "sg", "strace", "ltrace", "unbuffer", "ionice", "source", "."}
) | WRAPPER_NAMES


def is_assignment(word: str) -> bool:
    """``NAME=VALUE`` with a valid shell name."""
    name, eq, _ = word.partition("=")
    return bool(eq) and bool(name) and (name[0].isalpha() or name[0] == "_") and name.replace("_", "a").isalnum() and name.isascii()


class Peeled:
    """The result of peeling: the effective command and what surrounded it (a plain
    class, as :class:`_Opts`: cheaper to define at import than a dataclass)."""

    __slots__ = ("argv", "wrappers", "assignments", "cwd", "origin", "shell", "shell_origin", "problems")

    def __init__(self, argv: tuple[str, ...]) -> None:
        self.argv = argv
        self.wrappers: list[str] = []
        self.assignments: list[tuple[str, str]] = []
        #: Directory changes requested by wrappers (``env -C``, ``sudo -D``), in order.
        self.cwd: list[str] = []
        self.origin: str | None = None
        #: A shell command string to parse again, and the origin its commands get.
        self.shell: str | None = None
        self.shell_origin = ""
        self.problems: list[str] = []


class _Opts:
    """A wrapper's options: where its command starts, the values read, what was wrong."""

    __slots__ = ("index", "values", "problems")

    def __init__(self, index: int, values: list[tuple[str, str | None]], problems: list[str]) -> None:
        self.index = index
        self.values = values
        self.problems = problems


def _read_options(argv: tuple[str, ...], start: int, spec: WrapperSpec, name: str,
                  assignments: list[tuple[str, str]] | None) -> _Opts:
    """getopt-style scan from ``start``; stops at ``--``, the first operand, or (for
    wrappers that take them) after ``NAME=VALUE`` operands."""
    values: list[tuple[str, str | None]] = []
    problems: list[str] = []
    i, n = start, len(argv)
    while i < n:
        arg = argv[i]
        if assignments is not None and spec.assignments and is_assignment(arg):
            key, _, val = arg.partition("=")
            assignments.append((key, val))
            i += 1
            # options end at the first assignment (env FOO=1 -i: -i is the command)
            while i < n and is_assignment(argv[i]):
                key, _, val = argv[i].partition("=")
                assignments.append((key, val))
                i += 1
            break
        if arg == "--":
            i += 1
            break
        if arg == "-" and "-" in spec.flags:
            values.append(("-", None))
            i += 1
            continue
        if len(arg) < 2 or arg[0] != "-":
            break
        if spec.numeric and arg[1:].lstrip("-").isdigit():
            values.append(("-n", arg.lstrip("-")))
            i += 1
            continue
        if arg.startswith("--"):
            opt, eq, val = arg.partition("=")
            if opt in spec.with_arg:
                if eq:
                    values.append((opt, val))
                elif i + 1 < n:
                    values.append((opt, argv[i + 1]))
                    i += 1
                else:
                    problems.append(f"{name}: option {opt} needs a value")
            elif opt in spec.flags or opt in spec.attached or spec.any_long:
                values.append((opt, val if eq else None))
            else:
                problems.append(f"{name}: unknown option {opt}")
                values.append((opt, val if eq else None))
            i += 1
            continue
        if arg in spec.flags:  # multi-letter short flags such as strace -tt
            values.append((arg, None))
            i += 1
            continue
        j = 1
        while j < len(arg):
            opt = "-" + arg[j]
            rest = arg[j + 1 :]
            if opt in spec.with_arg:
                if rest:
                    values.append((opt, rest))
                elif i + 1 < n:
                    values.append((opt, argv[i + 1]))
                    i += 1
                else:
                    problems.append(f"{name}: option {opt} needs a value")
                break
            if opt in spec.attached:
                values.append((opt, rest or None))
                break
            if opt not in spec.flags:
                problems.append(f"{name}: unknown option {opt}")
            values.append((opt, None))
            j += 1
        i += 1
    return _Opts(i, values, problems)


def shell_string(argv: tuple[str, ...]) -> str | None:
    """The command string a shell runs for ``bash -c STRING`` (``-lc``, ``-ec``, options
    before or after ``-c``), ``fish -c``/``-C``; None when the shell reads a file or stdin."""
    name = argv[0].rsplit("/", 1)[-1] if argv else ""
    if name not in SHELLS:
        return None
    n = len(argv)
    if name == "fish":
        strings: list[str] = []
        i = 1
        while i < n:
            arg = argv[i]
            if arg in _FISH_STRING:
                if i + 1 < n:
                    strings.append(argv[i + 1])
                i += 2
                continue
            if arg.startswith(("--command=", "--init-command=")):
                strings.append(arg.partition("=")[2])
            elif arg == "--" or not arg.startswith("-") or arg == "-":
                break
            i += 1
        return "\n".join(strings) if strings else None
    i, letters = _shell_options(argv)
    if "c" in letters:
        return argv[i] if i < n else None
    return None


def _shell_options(argv: tuple[str, ...]) -> tuple[int, str]:
    """Scan a (non-fish) shell's options: the index of its first operand, and every
    letter of its ``-x`` options."""
    n = len(argv)
    seen = ""
    i = 1
    while i < n:
        arg = argv[i]
        if arg in ("--", "-"):
            i += 1
            break
        if len(arg) < 2 or arg[0] not in "-+":
            break
        if arg.startswith("--"):
            i += 2 if arg in _SHELL_LONG_WITH_ARG else 1
            continue
        letters = arg[1:]
        if arg[0] == "-":
            seen += letters
        # every o/O in a cluster (-o pipefail, -eo pipefail) consumes the next argument
        i += 1 + letters.count("o") + letters.count("O")
    return i, seen


def shell_input(argv: tuple[str, ...]) -> tuple[str, str]:
    """Where a shell run without a command string reads its commands: ``("stdin", "")``
    (no operand, ``-s``, ``-i``), ``("file", OPERAND)`` (``bash script.sh args``), or
    ``("none", "")`` for ``-n``, which only checks the syntax."""
    name = argv[0].rsplit("/", 1)[-1] if argv else ""
    if name == "fish":
        operands = [a for a in argv[1:] if not a.startswith("-")]
        return ("file", operands[0]) if operands else ("stdin", "")
    i, letters = _shell_options(argv)
    if "n" in letters:
        return ("none", "")
    if "s" in letters or "i" in letters or i >= len(argv):
        return ("stdin", "")
    return ("file", argv[i])


#: find's actions that run a command, ended by ``;`` or ``+``.
_FIND_EXEC = frozenset({"-exec", "-execdir", "-ok", "-okdir"})
_FD_EXEC = frozenset({"-x", "--exec", "-X", "--exec-batch"})


def find_exec_commands(argv: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The commands ``find … -exec CMD {} ;`` (and ``fd -x CMD``) run, in order."""
    name = argv[0].rsplit("/", 1)[-1] if argv else ""
    found: list[tuple[str, ...]] = []
    if name in ("find", "gfind", "bfs"):
        i, n = 1, len(argv)
        while i < n:
            if argv[i] in _FIND_EXEC:
                j = i + 1
                while j < n and argv[j] not in (";", "+"):
                    j += 1
                if j > i + 1:
                    found.append(argv[i + 1 : j])
                i = j
            i += 1
    elif name in ("fd", "fdfind"):
        for i, arg in enumerate(argv[1:], 1):
            if arg in _FD_EXEC:
                rest = argv[i + 1 :]
                if ";" in rest:
                    rest = rest[: rest.index(";")]
                if rest:
                    found.append(rest)
                break
    return found


def _join(words: tuple[str, ...] | list[str]) -> str:
    """Words joined for a shell to split again (the wrapper itself joins with spaces)."""
    return " ".join(words)


def _peel_one(argv: tuple[str, ...], out: Peeled) -> tuple[str, ...] | None:
    """Peel one wrapper off ``argv``; return the inner argv, or None when ``argv`` is
    not a wrapper, runs nothing, or hands over a shell string (set on ``out``)."""
    name = argv[0].rsplit("/", 1)[-1]
    if name in _SPECIAL:
        return _special(name, argv, out)
    spec = WRAPPERS.get(name)
    if spec is None:
        return None
    return _peel_spec(name, argv, spec, out)


def _peel_spec(name: str, argv: tuple[str, ...], spec: WrapperSpec, out: Peeled) -> tuple[str, ...] | None:
    """Peel ``argv`` (``argv[0]`` is the wrapper or its subcommand) as ``spec`` reads it."""
    opts = _read_options(argv, 1, spec, name, out.assignments)
    found = {opt for opt, _ in opts.values}
    if found & spec.no_exec_opts:
        return None
    i = opts.index + spec.positionals
    if opts.index + spec.positionals > len(argv):
        return None
    # an option can end up after the positionals (flock); none of our table rows allow it
    out.problems.extend(opts.problems)
    out.problems.extend(f"{name}: option {opt} names a program or commands bastion does not read"
                        for opt in sorted(found & spec.opaque_opts))
    for opt, value in opts.values:
        if opt in spec.cwd_opts and value is not None:
            out.cwd.append(value)
    rest = argv[i:]
    if spec.separators and not spec.separators.isdisjoint(rest):
        out.problems.append(f"{name}: another command follows")
        rest = rest[: min(rest.index(sep) for sep in spec.separators if sep in rest)]
    strings = [value for opt, value in opts.values if opt in spec.string_opts and value is not None]
    if name == "sudo" and ("-e" in found or "--edit" in found):
        out.wrappers.append(name)
        return ("sudoedit", *rest)
    if strings:
        out.wrappers.append(name)
        extra = _join(rest) if name == "env" and rest else ""
        out.shell = strings[-1] + (" " + extra if extra else "")
        out.shell_origin = f"{name} -S" if name == "env" else f"{name} -c"
        return None
    if spec.subcommands:
        sub = spec.subcommands.get(rest[0]) if rest else None
        return _peel_spec(name, rest, sub, out) if sub is not None else None
    if spec.typed_keys:
        typed = _typed(rest, literal=bool(found & spec.literal_opts), name=name, out=out)
        if not typed.strip():
            return None
        out.wrappers.append(name)
        out.shell = typed
        out.shell_origin = f"{name} {argv[0]}"
        return None
    if found & spec.shell_opts:
        out.wrappers.append(name)
        if rest:
            out.shell = _join(rest)
            out.shell_origin = f"{name} -s"
            return None
        return ("sh",)
    if not rest:
        if spec.default:
            out.wrappers.append(name)
            return spec.default
        return None
    out.wrappers.append(name)
    if spec.origin:
        out.origin = spec.origin
    if (spec.rest_is_string and not (found & spec.argv_opts)) or (spec.one_word_is_string and len(rest) == 1):
        out.shell = _join(rest)
        out.shell_origin = name
        return None
    return rest


#: Key names ``tmux send-keys`` turns into text; any other name (``C-c``, ``Tab``, ``Up``)
#: edits or recalls a line bastion cannot see.
_KEY_TEXT = {"Enter": "\n", "C-m": "\n", "KPEnter": "\n", "C-j": "\n", "Space": " "}


def _typed(keys: tuple[str, ...], literal: bool, name: str, out: Peeled) -> str:
    """The text ``keys`` type into a shell (``'make test' Enter`` → ``make test\\n``)."""
    text: list[str] = []
    edited = ""
    for key in keys:
        if literal or " " in key or key not in _KEY_TEXT and not _looks_like_key(key):
            text.append(key)
        elif key in _KEY_TEXT:
            text.append(_KEY_TEXT[key])
            if edited and _KEY_TEXT[key] == "\n":  # a line bastion cannot see is run
                out.problems.append(f"{name}: key {edited} edits the line before it runs")
                edited = ""
        elif key in ("C-c", "C-u"):  # drops the line typed so far
            done = "".join(text)
            text = [done[: done.rfind("\n") + 1]]
            edited = ""
        else:
            edited = key
    return "".join(text)


def _looks_like_key(word: str) -> bool:
    """``C-c``, ``M-x``, ``Tab``, ``Escape``, ``F1``, ``Up`` … (a word a person would type is text)."""
    if word[:2] in ("C-", "M-", "S-") and len(word) > 2:
        return True
    return word in {"Tab", "BTab", "Escape", "BSpace", "DC", "IC", "Up", "Down", "Left", "Right", "Home",
                    "End", "NPage", "PPage", "PageUp", "PageDown", "PgUp", "PgDn"} or (
        word[:1] == "F" and word[1:].isdigit())


def _special(name: str, argv: tuple[str, ...], out: Peeled) -> tuple[str, ...] | None:
    n = len(argv)
    if name == "eval":
        rest = argv[1:]
        if rest and rest[0] == "--":
            rest = rest[1:]
        if not rest:
            return None
        out.wrappers.append("eval")
        out.shell = _join(rest)
        out.shell_origin = "eval"
        return None
    if name in ("su", "runuser"):
        # options may appear anywhere (GNU getopt permutes); operands: [-] [USER [ARGS]]
        spec = WRAPPERS[name]
        operands: list[str] = []
        strings: list[str] = []
        user_mode = False
        i = 1
        while i < n:
            opts = _read_options(argv, i, spec, name, None)
            out.problems.extend(opts.problems)
            for opt, value in opts.values:
                if opt in spec.string_opts and value is not None:
                    strings.append(value)
                if opt in ("-u", "--user") and name == "runuser":
                    user_mode = True
            i = opts.index
            if user_mode:
                break
            if i < n:
                operands.append(argv[i])
                i += 1
        out.wrappers.append(name)
        if user_mode:
            rest = argv[i:]
            return rest if rest else ("sh",)
        if strings:
            out.shell = strings[-1]
            out.shell_origin = f"{name} -c"
            return None
        return ("sh",)
    if name == "sg":
        # sg GROUP [-c] COMMAND… (the command is run by /bin/sh -c)
        rest = argv[1:]
        if rest and rest[0] == "-":
            rest = rest[1:]
        if len(rest) < 2:
            return None
        rest = rest[1:]
        if rest[0] == "-c":
            rest = rest[1:]
        elif rest[0].startswith("-"):
            return None  # not sg(1) (ast-grep is also called sg: "sg scan --interactive")
        if not rest:
            return None
        out.wrappers.append("sg")
        out.shell = _join(rest)
        out.shell_origin = "sg"
        return None
    if name == "flock":
        spec = WrapperSpec(
            with_arg=_opts("-w", "--timeout", "--wait", "-E", "--conflict-exit-code", "-c", "--command"),
            flags=_opts("-s", "--shared", "-x", "-e", "--exclusive", "-u", "--unlock", "-n", "--nb",
                        "--nonblock", "-o", "--close", "-F", "--no-fork", "-v", "--verbose"),
            string_opts=_opts("-c", "--command"),
        )
        strings = []
        opts = _read_options(argv, 1, spec, name, None)
        out.problems.extend(opts.problems)
        strings += [v for o, v in opts.values if o in spec.string_opts and v is not None]
        i = opts.index
        if i >= n:
            return None
        i += 1  # the lock file or descriptor
        opts = _read_options(argv, i, spec, name, None)
        out.problems.extend(opts.problems)
        strings += [v for o, v in opts.values if o in spec.string_opts and v is not None]
        i = opts.index
        out.wrappers.append("flock")
        if strings:
            out.shell = strings[-1]
            out.shell_origin = "flock -c"
            return None
        rest = argv[i:]
        if not rest:
            out.wrappers.pop()
            return None
        return rest
    if name == "parallel":
        # parallel [OPTIONS] COMMAND… ::: ARGS — the command template runs in a shell
        with_arg = _opts("-j", "--jobs", "-S", "--sshlogin", "-a", "--arg-file", "-I", "--delay",
                         "--timeout", "--joblog", "-d", "--delimiter", "-n", "--max-args", "-N",
                         "--colsep", "-C", "--tmpdir", "--results", "--basefile", "--sshloginfile",
                         "--workdir", "--tag-string", "-E", "--memfree", "--load", "--retries")
        spec = WrapperSpec(with_arg=with_arg, any_long=True, flags=_opts(
            "-k", "--keep-order", "-q", "--quote", "-v", "--verbose", "-0", "--null", "-X", "-m",
            "--dry-run", "--progress", "--bar", "--eta", "--halt", "-u", "--ungroup", "--line-buffer",
            "--group", "--tag", "--pipe", "-r", "--no-run-if-empty", "--will-cite"))
        opts = _read_options(argv, 1, spec, name, None)
        out.problems.extend(opts.problems)
        rest = argv[opts.index :]
        for stop in (":::", "::::", ":::+", "::::+"):
            if stop in rest:
                rest = rest[: rest.index(stop)]
        if not rest:
            return None
        out.wrappers.append("parallel")
        if any(opt in ("-q", "--quote") for opt, _ in opts.values):
            out.origin = "xargs"  # the inputs are appended, as with xargs
            return rest
        out.shell = _join(rest)
        out.shell_origin = "parallel"
        return None
    return None


def wrapper_options(argv: tuple[str, ...]) -> tuple[list[tuple[str, str | None]], int]:
    """The options of the table wrapper ``argv[0]`` as ``(option, value)`` pairs, and the
    index where the command it runs starts (``xargs -0 -I{} rm {}`` → 3)."""
    name = argv[0].rsplit("/", 1)[-1] if argv else ""
    spec = WRAPPERS.get(name)
    if spec is None:
        return [], len(argv)
    opts = _read_options(argv, 1, spec, name, None)
    return opts.values, min(len(argv), opts.index + spec.positionals)


#: How many wrappers deep :func:`peel` goes before giving up.
MAX_WRAPPERS = 16


def peel(argv: tuple[str, ...]) -> Peeled:
    """Peel every wrapper off ``argv``. The result's ``argv`` is the effective command;
    when ``shell`` is set the effective commands are in that string instead (``argv`` is
    then the last wrapper's view, kept for reporting)."""
    out = Peeled(argv)
    if not argv:
        return out
    if argv[0].rsplit("/", 1)[-1] not in WRAPPER_NAMES:
        return out
    current = argv
    for _ in range(MAX_WRAPPERS):
        if not current:
            break
        inner = _peel_one(current, out)
        if out.shell is not None:
            out.argv = current
            return out
        if inner is None:
            break
        current = (gnu_name(inner[0]), *inner[1:]) if inner and inner[0][:1] == "g" else inner  # ``timeout 5 grm``
    else:
        out.problems.append(f"more than {MAX_WRAPPERS} nested wrappers")
    out.argv = current
    return out

"""Shell strings that a command's options, operands or environment hand to a shell.

``git -c core.pager='rm -rf ~' log`` runs ``rm -rf ~`` through ``sh -c``, exactly like
``sh -c 'rm -rf ~'``. The parser records the outer command as it is and parses each string
found here again as shell (depth-limited like ``bash -c``), so what the string would do is
judged as if typed, and belongs to the outer command line.

Kept as data: :data:`COMMANDS` names, per command, the options (and subcommand options or
operands) whose value is a shell string; :data:`GIT_CONFIG` the git configuration keys
whose value git runs through a shell; :data:`ENV_VARS` the environment variables whose
value programs run through a shell. Values that are only a program name (``less``,
``vim``) are parsed too: they are one harmless command.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from collections.abc import Callable, Iterable, Sequence

__all__ = ["EmbeddedSpec", "COMMANDS", "GIT_CONFIG", "ENV_VARS", "embedded_shell"]


#: ``(pattern, program)``: a value matching ``pattern`` (``re.match``, dot matches newline)
#: carries code in group 1; ``program`` "" means that code is shell, else the code is run
#: as ``program <code>`` (``gdb -ex 'python …'`` is ``python3 -c '…'``).
Rule = tuple[str, str]


class EmbeddedSpec:
    """Where one command carries shell strings.

    ``opts``: options whose value is a shell string (``-e CMD`` / ``-eCMD`` / ``--rsh=CMD``).
    ``with_arg``: other options that take a value (skipped while looking for operands).
    ``rest``: every operand after the options is joined into one shell string
    (``git submodule foreach git pull``). ``rest_argv``: the operands are an argv, run
    as they are (``git bisect run sh -c …``). ``first_operand``: the first operand is a
    shell string (``trap 'cmd' EXIT``). ``subcommands``: per subcommand, its own row.
    ``ssh_options``: ``-o Key=Value`` keys whose value is a shell string (lower case).
    ``ext_urls``: an ``ext::CMD`` operand is a remote helper command, run as an argv
    (words split at spaces; ``% `` is a space, ``%%`` a percent sign).
    ``anywhere``: options may follow operands (GNU getopt order: ``tar cf x.tar . --to-command=…``);
    ``stop``: an option after which the words belong to another program (``gdb --args``).
    ``multi_arg``: options taking more than one value (``hyperfine -P n 1 8``).
    ``prefixed``: options whose value is shell only behind a prefix (:data:`Rule`).
    ``each_operand``: every operand is its own shell string (``hyperfine 'cmd' 'cmd'``);
    ``operand_rules``: operands that are shell behind a prefix (``sqlite3 db '.shell …'``).
    ``makefile_opts``: options whose value is makefile text; its recipe lines are shell.
    ``builtin_opt``/``builtins``: ``cmake -E NAME ARGS``: the builtin NAME does what the
    shell text ``builtins[NAME]`` (``{args}`` the remaining words, ``{first}``/``{rest}``) does.
    ``config_pair``: ``git config [set] KEY VALUE`` stores VALUE under KEY; a key of
    :data:`GIT_CONFIG` makes it a shell string git runs later (``git config core.pager CMD``).
    ``config_reads``: options that make ``git config`` read or remove, never store.

    A plain class, its rows never changed: they are made when the module loads, on every
    shell decision, and a frozen dataclass costs several times more to define and fill.
    """

    def __init__(self, *, opts: frozenset[str] = frozenset(), with_arg: frozenset[str] = frozenset(),
                 rest: bool = False, rest_argv: bool = False, first_operand: bool = False,
                 subcommands: dict[str, EmbeddedSpec] | None = None, ssh_options: frozenset[str] = frozenset(),
                 ext_urls: bool = False, anywhere: bool = False, stop: frozenset[str] = frozenset(),
                 multi_arg: dict[str, int] | None = None, prefixed: dict[str, tuple[Rule, ...]] | None = None,
                 each_operand: bool = False, operand_rules: tuple[Rule, ...] = (),
                 makefile_opts: frozenset[str] = frozenset(), builtin_opt: str = "",
                 builtins: dict[str, str] | None = None, config_pair: bool = False,
                 config_reads: frozenset[str] = frozenset()) -> None:
        self.opts = opts
        self.with_arg = with_arg
        self.rest = rest
        self.rest_argv = rest_argv
        self.first_operand = first_operand
        self.subcommands: dict[str, EmbeddedSpec] = subcommands if subcommands is not None else {}
        self.ssh_options = ssh_options
        self.ext_urls = ext_urls
        self.anywhere = anywhere
        self.stop = stop
        self.multi_arg: dict[str, int] = multi_arg if multi_arg is not None else {}
        self.prefixed: dict[str, tuple[Rule, ...]] = prefixed if prefixed is not None else {}
        self.each_operand = each_operand
        self.operand_rules = operand_rules
        self.makefile_opts = makefile_opts
        self.builtin_opt = builtin_opt
        self.builtins: dict[str, str] = builtins if builtins is not None else {}
        self.config_pair = config_pair
        self.config_reads = config_reads


def _o(*names: str) -> frozenset[str]:
    return frozenset(names)


_UPLOAD = EmbeddedSpec(opts=_o("--upload-pack", "-u"), ext_urls=True)

#: git subcommands with options (or operands) that git hands to ``sh -c``.
_GIT_SUBS: dict[str, EmbeddedSpec] = {
    "clone": _UPLOAD,
    "ls-remote": _UPLOAD,
    "fetch": EmbeddedSpec(opts=_o("--upload-pack"), ext_urls=True),
    "pull": EmbeddedSpec(opts=_o("--upload-pack"), ext_urls=True),
    "archive": EmbeddedSpec(opts=_o("--exec")),
    "push": EmbeddedSpec(opts=_o("--receive-pack", "--exec"), ext_urls=True),
    "send-pack": EmbeddedSpec(opts=_o("--receive-pack", "--exec")),
    "fetch-pack": EmbeddedSpec(opts=_o("--upload-pack", "--exec")),
    "rebase": EmbeddedSpec(opts=_o("--exec", "-x"), with_arg=_o("--onto", "-s", "--strategy", "-X", "--strategy-option")),
    "bisect": EmbeddedSpec(subcommands={"run": EmbeddedSpec(rest_argv=True)}),
    "submodule": EmbeddedSpec(subcommands={"foreach": EmbeddedSpec(rest=True)}),
    "filter-branch": EmbeddedSpec(
        opts=_o("--tree-filter", "--index-filter", "--msg-filter", "--commit-filter", "--env-filter",
                "--parent-filter", "--tag-name-filter", "--setup"),
        with_arg=_o("--subdirectory-filter", "-d", "--original", "--state-branch"),
    ),
    "grep": EmbeddedSpec(opts=_o("--open-files-in-pager", "-O")),
    "difftool": EmbeddedSpec(opts=_o("--extcmd", "-x")),
    "config": EmbeddedSpec(
        config_pair=True, anywhere=True,
        with_arg=_o("-f", "--file", "--blob", "-t", "--type", "--default", "--comment", "--value"),
        config_reads=_o("--get", "--get-all", "--get-regexp", "--get-urlmatch", "--get-color", "--get-colorbool",
                        "--unset", "--unset-all", "-l", "--list", "--rename-section", "--remove-section", "-e",
                        "--edit", "--fixed-value")),
}

_GO_RUNS = EmbeddedSpec(opts=_o("-exec", "--exec", "-toolexec", "--toolexec"), anywhere=True)
#: go subcommands whose ``-exec`` (runs the built binary) or ``-toolexec`` / ``-vettool``
#: (runs each compiler tool) is a program string.
_GO_SUBS: dict[str, EmbeddedSpec] = {
    "test": _GO_RUNS, "run": _GO_RUNS,
    **dict.fromkeys(("build", "install", "get", "list"),
                    EmbeddedSpec(opts=_o("-toolexec", "--toolexec"), anywhere=True)),
    "vet": EmbeddedSpec(opts=_o("-toolexec", "--toolexec", "-vettool", "--vettool"), anywhere=True),
}

#: gdb commands that reach a shell (``shell``/``!``, ``pipe … | CMD``) or Python.
_GDB: tuple[Rule, ...] = (
    (r"\s*(?:shell\b|!)\s*(.*)", ""),
    (r"\s*(?:pipe|\|)\s[^|]*\|(.*)", ""),
    (r"\s*(?:python|py|python-interactive|pi)\b\s*(.+)", "python3 -c"),
)
#: vim ex commands that run a shell: ``:!cmd``, ``:silent !cmd``, ``:%!filter``, ``:r !cmd``, ``:w !cmd``,
#: ``:call system('cmd')``; neovim's ``:lua …`` is Lua code.
_VIM_BANG: tuple[Rule, ...] = (
    (r"[\s:]*(?:sil(?:ent)?!?\s*)?(?:[%.$,\d]*|r(?:ead)?\s*|w(?:rite)?\s+)!(.*)", ""),
    (r"[\s:]*(?:sil(?:ent)?!?\s*)?(?:call\s+|echo\s+|let\s+\w+\s*=\s*|lua\s+[^(]*?)?(?:vim\.fn\.)?system(?:list)?\s*\(\s*['\"]([^'\"]*)['\"]", ""),
    (r"[\s:]*lua\s+(.+)", "lua -e"),  # neovim's Lua: read by the Lua model
)
#: ``-s`` is not among the options with a value: in Ex mode (``vim -e -s``) it is the
#: silent switch, and reading its next word as a script name would hide ``-c '!cmd'``.
_VIM = EmbeddedSpec(prefixed=dict.fromkeys(("-c", "--cmd", "+"), _VIM_BANG),
                    with_arg=_o("-S", "-u", "-U", "-i", "-T", "-w", "-W", "-t", "-q"), anywhere=True)
#: psql backslash commands that run a shell: ``\! cmd``, output piped with ``\o |cmd`` / ``\g |cmd``.
_PSQL: tuple[Rule, ...] = ((r"\s*\\!(.*)", ""), (r"\s*\\(?:o|out|g|gx|w|write)\s*\|(.*)", ""))
#: sqlite3 dot-commands that run a shell, or pipe output to one.
_SQLITE: tuple[Rule, ...] = (
    (r"\s*\.(?:shell|system)\s(.*)", ""),
    (r"\s*\.(?:once|output)\s+(?:-\w+\s+)*['\"]?\|(.*)", ""),
)

#: Commands whose options or operands are shell strings. git's global ``-c KEY=VALUE``
#: is read with :data:`GIT_CONFIG`; every ``VAR=value`` prefix with :data:`ENV_VARS`.
COMMANDS: dict[str, EmbeddedSpec] = {
    "git": EmbeddedSpec(with_arg=_o("-C", "--git-dir", "--work-tree", "--namespace", "--exec-path",
                                    "--super-prefix", "--attr-source"),
                        subcommands=_GIT_SUBS),
    "ssh": EmbeddedSpec(ssh_options=_o("proxycommand", "localcommand", "knownhostscommand")),
    "scp": EmbeddedSpec(ssh_options=_o("proxycommand", "localcommand", "knownhostscommand")),
    "sftp": EmbeddedSpec(ssh_options=_o("proxycommand", "localcommand", "knownhostscommand")),
    "rsync": EmbeddedSpec(opts=_o("-e", "--rsh")),
    "man": EmbeddedSpec(opts=_o("-P", "--pager"), with_arg=_o("-M", "--manpath", "-m", "--systems", "-S", "-s", "--sections",
                                                              "-L", "--locale", "-C", "--config-file", "-E", "--encoding",
                                                              "-p", "--preprocessor", "-R", "--recode", "-T", "--troff-device"),
                        anywhere=True),
    "trap": EmbeddedSpec(first_operand=True),
    # tar runs these with ``sh -c``; ``--checkpoint-action`` only for its ``exec=`` action
    "tar": EmbeddedSpec(opts=_o("--to-command", "--use-compress-program", "-I", "--info-script", "-F",
                                "--new-volume-script", "--rsh-command", "--rmt-command"),
                        prefixed={"--checkpoint-action": ((r"exec=(.*)", ""),)}, anywhere=True),
    "zip": EmbeddedSpec(opts=_o("-TT", "--unzip-command"), anywhere=True),
    "go": EmbeddedSpec(with_arg=_o("-C"), subcommands=_GO_SUBS),
    "hyperfine": EmbeddedSpec(
        opts=_o("-p", "--prepare", "-s", "--setup", "-c", "--cleanup", "--conclude", "--reference"),
        with_arg=_o("-w", "--warmup", "-m", "--min-runs", "-M", "--max-runs", "-r", "--runs", "-S", "--shell",
                    "-u", "--time-unit", "--style", "--sort", "--export-asciidoc", "--export-csv",
                    "--export-json", "--export-markdown", "--export-orgmode", "--output", "--input",
                    "-n", "--command-name", "-D", "--parameter-step-size", "--min-benchmarking-time"),
        multi_arg={"-P": 3, "--parameter-scan": 3, "-L": 2, "--parameter-list": 2},
        each_operand=True, anywhere=True),
    "cmake": EmbeddedSpec(builtin_opt="-E", builtins={
        "rm": "rm {args}", "remove": "rm -f {args}", "remove_directory": "rm -rf -- {args}",
        "env": "env {args}", "time": "{args}", "chdir": "cd {first} && {rest}",
    }),
    "gdb": EmbeddedSpec(prefixed=dict.fromkeys(
        ("-ex", "--ex", "-eval-command", "--eval-command", "-iex", "--iex", "-init-eval-command",
         "--init-eval-command"), _GDB), stop=_o("--args"), anywhere=True),
    "psql": EmbeddedSpec(prefixed=dict.fromkeys(("-c", "--command"), _PSQL), anywhere=True),
    "sqlite3": EmbeddedSpec(prefixed={"-cmd": _SQLITE, "--cmd": _SQLITE}, operand_rules=_SQLITE, anywhere=True),
    "socat": EmbeddedSpec(operand_rules=((r"(?i:system|exec):([^,]*)", ""),), anywhere=True),
    **dict.fromkeys(("make", "gmake"), EmbeddedSpec(
        makefile_opts=_o("--eval", "-E"),
        with_arg=_o("-f", "--file", "--makefile", "-C", "--directory", "-I", "--include-dir",
                    "-o", "--old-file", "-W", "--what-if", "--new-file", "-j", "-l"),
        anywhere=True)),
    **dict.fromkeys(("vim", "vi", "nvim", "view", "gvim", "ex", "rvim"), _VIM),
}

#: git configuration keys (lower case) whose value git runs with ``sh -c``; a key ending
#: in ``.*`` is a prefix (``alias.*`` only when the value starts with ``!``).
GIT_CONFIG: frozenset[str] = frozenset({
    "core.pager", "core.editor", "core.sshcommand", "core.fsmonitor", "core.askpass",
    "diff.external", "sequence.editor", "pager.*", "alias.*", "credential.helper",
    "difftool.*", "mergetool.*", "merge.*", "diff.*", "filter.*", "uploadpack.packobjectshook",
    "sendemail.tocmd", "sendemail.cccmd",
})

#: Suffixes of ``section.name.key`` keys run by a shell (``diff.x.textconv``, ``merge.x.driver``).
_GIT_CONFIG_SUFFIXES = (".textconv", ".command", ".driver", ".cmd", ".clean", ".smudge", ".process")

#: Environment variables whose value a program runs through a shell (pagers, editors,
#: ssh and diff programs); ``LESSOPEN`` starts with ``|`` when it is a pipe.
ENV_VARS: frozenset[str] = frozenset({
    "GIT_EXTERNAL_DIFF", "GIT_PAGER", "PAGER", "MANPAGER", "SYSTEMD_PAGER", "EDITOR", "VISUAL",
    "GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "SUDO_EDITOR", "GIT_SSH_COMMAND", "LESSOPEN", "LESSCLOSE",
    "GIT_ASKPASS", "SSH_ASKPASS", "SUDO_ASKPASS", "BROWSER",
})


def _git_config_shell(pair: str, how: str = "git -c") -> tuple[str, str] | None:
    """``(origin, script)`` when ``KEY=VALUE`` makes git run VALUE through a shell."""
    key, eq, value = pair.partition("=")
    if not eq:
        return None
    low = key.lower()
    section = low.split(".", 1)[0] + ".*"
    if low in GIT_CONFIG:
        pass
    elif section in GIT_CONFIG and (low.endswith(_GIT_CONFIG_SUFFIXES) or section in ("pager.*", "alias.*")):
        pass
    else:
        return None
    if low.startswith(("alias.", "credential.")):
        if not value.startswith("!"):
            return None  # a git subcommand / a helper name, not a shell string
        value = value[1:]
    if low == "core.fsmonitor" and value.lower() in ("true", "false", "1", "0", "yes", "no", "on", "off"):
        return None
    return f"{how} {low}", value


def _ext_command(url: str) -> str:
    """``git-remote-ext``'s command as a shell string (an argv quoted word by word)."""
    import shlex  # cold path: only ``ext::`` URLs

    words, word, i = [], [], 0
    while i < len(url):
        ch = url[i]
        if ch == "%" and i + 1 < len(url) and url[i + 1] in " %":
            word.append(url[i + 1])
            i += 2
            continue
        if ch == " ":
            if word:
                words.append("".join(word))
            word = []
        else:
            word.append(ch)
        i += 1
    if word:
        words.append("".join(word))
    return shlex.join(words)


def _option_value(args: Sequence[str], i: int, opts: frozenset[str]) -> tuple[str | None, int]:
    """The shell string carried by ``args[i]`` (and how many words it used)."""
    arg = args[i]
    if arg in opts:
        return (args[i + 1], 2) if i + 1 < len(args) else (None, 1)
    name, eq, value = arg.partition("=")
    if eq and name in opts and (name.startswith("--") or len(name) > 2):
        return value, 1  # ``--rsh=CMD``, go's ``-exec=CMD``
    if arg.startswith("--"):
        return None, 1
    for opt in opts:
        if len(opt) == 2 and arg.startswith(opt) and len(arg) > 2:
            return arg[2:], 1
    return None, 1


def _apply(origin: str, value: str, rules: Iterable[Rule], out: list[tuple[str, str]]) -> None:
    """Add the code behind the first rule whose prefix ``value`` carries."""
    for pattern, program in rules:
        match = _matcher(pattern)(value)
        if match and match.group(1).strip():
            code = match.group(1)
            if program:
                import shlex  # cold path: only ``gdb -ex 'python …'``

                code = f"{program} {shlex.quote(code)}"
            out.append((origin, code))
            return


_MATCHERS: dict[str, Callable[[str], re.Match[str] | None]] = {}


def _matcher(pattern: str) -> Callable[[str], re.Match[str] | None]:
    """``re.compile(pattern, re.S).match``, compiled once per pattern of the tables."""
    match = _MATCHERS.get(pattern)
    if match is None:
        from ...precompiled import DOTALL, pattern as compiled_pattern  # the tables' text: kept, built without re

        match = _MATCHERS[pattern] = compiled_pattern(pattern, DOTALL).match
    return match


def _words_text(words: Sequence[str]) -> str:
    """Words as shell text again: kept as written (``~``, ``$HOME``, ``*`` keep their
    meaning); a word holding spaces or operators is double-quoted."""
    parts = []
    for word in words:
        if word and not any(ch in word for ch in " \t\n;|&<>'\"`\\") and not (
                "(" in word and not word.startswith("$(")):
            parts.append(word)
        else:
            parts.append('"' + word.replace("\\", "\\\\").replace('"', '\\"').replace("`", "\\`") + '"')
    return " ".join(parts)


def _builtin(template: str, words: Sequence[str]) -> str:
    return template.format(args=_words_text(words), first=_words_text(words[:1]), rest=_words_text(words[1:]))


def _maven_exec(args: Sequence[str]) -> str | None:
    """``mvn exec:exec -Dexec.executable=X -Dexec.args='…'`` runs ``X …`` (the exec
    plugin splits ``exec.args`` like a command line)."""
    if not any(a.startswith("exec:exec") or a.endswith(":exec") for a in args):
        return None
    props = {}
    for k, arg in enumerate(args):
        pair = arg[2:] if arg.startswith("-D") and len(arg) > 2 else (args[k + 1] if arg == "-D" and k + 1 < len(args) else "")
        name, eq, value = pair.partition("=")
        if eq:
            props[name] = value
    executable = props.get("exec.executable")
    if not executable:
        return None
    return f"{_words_text([executable])} {props.get('exec.args', '')}".strip()


def _scan(name: str, args: Sequence[str], spec: EmbeddedSpec, out: list[tuple[str, str]], depth: int = 0) -> None:
    i, n = 0, len(args)
    operands: list[str] = []
    while i < n:
        arg = args[i]
        if arg == "--":
            i += 1
            break
        if "+" in spec.prefixed and arg.startswith("+"):
            _apply(f"{name} +", arg[1:], spec.prefixed["+"], out)  # ``vim +'!cmd'``
            i += 1
            continue
        if not arg.startswith("-") or arg == "-":
            if not spec.anywhere:
                break
            operands.append(arg)  # options may still follow (GNU order)
            i += 1
            continue
        if name == "git" and depth == 0 and (arg == "-c" or (arg.startswith("-c") and len(arg) > 2)):
            pair = args[i + 1] if arg == "-c" and i + 1 < n else arg[2:]
            found = _git_config_shell(pair)
            if found:
                out.append(found)
            i += 2 if arg == "-c" else 1
            continue
        if name == "git" and depth == 0 and (arg == "--config-env" or arg.startswith("--config-env=")):
            # ``--config-env=KEY=VAR``: the shell string is the value of $VAR (``eval`` reads
            # it as code when the line set it, and asks when nobody knows it)
            pair = args[i + 1] if arg == "--config-env" and i + 1 < n else arg.partition("=")[2]
            key, _, variable = pair.partition("=")
            found = _git_config_shell(f'{key}=eval "${{{variable}}}"', "git --config-env") if variable else None
            if found:
                out.append(found)
            i += 2 if arg == "--config-env" else 1
            continue
        if spec.ssh_options and (arg == "-o" or arg.startswith("-o")):
            option = (args[i + 1] if i + 1 < n else "") if arg == "-o" else arg[2:]
            key, _, setting = option.replace("=", " ", 1).partition(" ")
            if key.lower() in spec.ssh_options and setting.strip():
                out.append((f"{name} -o {key}", setting.strip()))
            i += 2 if arg == "-o" else 1
            continue
        value, used = _option_value(args, i, spec.opts)
        if value is not None:
            out.append((f"{name} {arg.split('=', 1)[0][:20]}", value))
            i += used
            continue
        if spec.prefixed:
            value, used = _option_value(args, i, frozenset(spec.prefixed))
            if value is not None:
                opt = arg if arg in spec.prefixed else next(o for o in spec.prefixed if arg.startswith(o))
                _apply(f"{name} {opt}", value, spec.prefixed[opt], out)
                i += used
                continue
        if spec.makefile_opts:
            value, used = _option_value(args, i, spec.makefile_opts)
            if value is not None:
                from .make_args import makefile_shells  # make's own command line: only for make

                out.extend((f"{name} --eval", text) for text in makefile_shells(value))
                i += used
                continue
        if spec.builtin_opt and arg == spec.builtin_opt:
            if i + 1 < n and args[i + 1] in spec.builtins:
                out.append((f"{name} {arg} {args[i + 1]}", _builtin(spec.builtins[args[i + 1]], args[i + 2:])))
            return
        if arg in spec.stop or arg in spec.config_reads:
            return
        i += 1 + spec.multi_arg.get(arg, 1 if arg in spec.with_arg else 0)
    operands.extend(args[i:])
    if spec.config_pair:
        kv = operands[1:] if operands[:1] == ["set"] else operands
        if len(kv) == 2:
            found = _git_config_shell(f"{kv[0]}={kv[1]}", name)
            if found:
                out.append(found)
    if spec.each_operand:
        out.extend((f"{name} command", word) for word in operands)
    if spec.operand_rules:  # most commands have none: no operand is looked at
        for word in operands:
            _apply(f"{name} operand", word, spec.operand_rules, out)
    if spec.first_operand and len(operands) > 1:
        out.append((f"{name} string", operands[0]))
    if spec.rest and operands:
        out.append((f"{name} string", " ".join(operands)))
    if spec.rest_argv and operands:
        import shlex  # cold path: only ``git bisect run``

        out.append((f"{name} command", shlex.join(operands)))
    if spec.ext_urls:
        for word in operands:
            if word.startswith("ext::"):
                out.append((f"{name} ext::", _ext_command(word[5:])))
    if operands and operands[0] in spec.subcommands:
        sub = operands[0]
        _scan(f"{name} {sub}", operands[1:], spec.subcommands[sub], out, depth + 1)


def embedded_shell(argv: Sequence[str], assigns: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """``(origin, script)`` for each shell string this command hands to a shell."""
    out: list[tuple[str, str]] = []
    if argv:
        head = argv[0].rsplit("/", 1)[-1]
        spec = COMMANDS.get(head)
        if spec is not None:
            _scan(head, argv[1:], spec, out)
        if head == "trap":
            out = [(o, s) for o, s in out if s != "-"]  # ``trap - EXIT`` resets
        if head in ("mvn", "mvnw", "mvnd") and (line := _maven_exec(argv[1:])):
            out.append(("mvn exec:exec", line))
        if head in ("make", "gmake"):
            # ``make 'X:=$(shell …)'``, ``make CFLAGS='-O2;…'``; make imports the environment
            # as recursive variables, so ``CFLAGS='…' make`` is ``make CFLAGS='…'``
            assigns = list(assigns)
            words = [f"{n}={v}" for n, v in assigns if n.upper() not in ("MAKEFLAGS", "GNUMAKEFLAGS", "MFLAGS")]
            words += [a for a in argv[1:] if "=" in a]
            if words:
                from .make_args import command_line_shells

                out.extend(command_line_shells(words))
    for name, value in assigns:
        if name in ENV_VARS and value.strip():
            script = value.lstrip("|") if name in ("LESSOPEN", "LESSCLOSE") else value
            out.append((f"{name}=", script))
        elif name in ("MAKEFLAGS", "GNUMAKEFLAGS", "MFLAGS") and value.strip():
            from .make_args import flags_shells

            out.extend(flags_shells(value))  # ``MAKEFLAGS='--eval=…' make``: every make below reads it
    return out

"""Checks for programs that run code: interpreters (``python -c``, ``node -e``,
scripts, ``python -m``), shells the parser left in place (stdin, unreadable ``-c``
strings), pagers and editors with shell escapes, TeX, package runners (``npx``),
credential tools, and wrappers that survived peeling.

Inline code is read for intents (``inline.code_intents``): reverse and bind shells,
fork bombs, download-and-evaluate, recursive deletes, secret files, and the shell
strings it hands to ``system()`` (analysed again by ``analyse.py``).
"""

from __future__ import annotations

from ...catalog import catalog as C
from ...syntax.lazyre import LazyPattern
from ...syntax.options import parse_args
from ...syntax.script import SimpleCommand
from ..effects import device_writes, fold_home, fork_loop, setid_chmods, shell_commands
from ..facts import (
    SHELL_PATHS,
    SHELL_WORD,
    STDIN_FILES,
    Ctx,
    Facts,
    L,
    apply_value,
    destructive_verb,
    dynamic,
    exec_file,
    host_of,
    judge_as,
    risky_options,
)
from ..inline import code_intents, heredoc_bodies
from ..inline_data import LANGUAGES, live_code
from ..models import read_program
from ..paths import resolve
from ..targets import is_block_device, persistence_level, secret_level
from ..verdicts import cell, program_findings, target_of
from .network import check_network
from .root import grant_root

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..program import ProgramEffects


def check_interpreter(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    code_opts = C.INTERPRETERS.get(f.name, frozenset())
    value_opts = C.INTERPRETER_VALUE_OPTS.get(f.name, frozenset())
    if f.name == "deno":
        _deno(f, args, ctx)
        return
    if f.name in ("node", "nodejs"):
        node_loads(f, args, ctx)
    if f.name in ("java",):
        f.at_least(L)
        f.hit("CAT032", f.label)
        _java_class(f, args, ctx)
        ops = [a for a in args if not a.startswith("-")]
        if any(destructive_verb(o) for o in ops[1:5]):
            f.hit("CAT016", f.label)
        elif any(o in ("shutdown", "safe-shutdown", "restart", "safe-restart") for o in ops[1:5]):
            f.hit("CAT018", f.label)
        return
    code: str | None = None
    module: str | None = None
    operands: list[str] = []
    i, n = 0, len(args)
    while i < n:
        arg = args[i]
        if arg in code_opts:
            code = args[i + 1] if i + 1 < n else ""
            break
        if arg.startswith("-") and not arg.startswith("--") and len(arg) > 2 and arg not in value_opts:
            cluster = _code_in_cluster(arg, code_opts, value_opts)
            if cluster is not None:
                code = cluster or (args[i + 1] if i + 1 < n else "")
                break
        if f.name in ("python", "pypy") and arg == "-m" or arg.startswith("-m") and f.name in ("python", "pypy") and len(arg) > 2:
            module = args[i + 1] if arg == "-m" and i + 1 < n else arg[2:]
            operands = list(args[i + 2 :]) if arg == "-m" else list(args[i + 1 :])
            break
        if arg in value_opts and i + 1 < n:
            i += 2
            continue
        if arg == "--":
            operands = list(args[i + 1 :])
            break
        if arg.startswith("-") and arg != "-":
            i += 1
            continue
        operands = list(args[i:])
        break
    if f.name == "php" and any(a == "-S" or a.startswith("-S") for a in args):
        f.hit("CAT029", f"{f.label} (built-in web server)")
        return
    if code is not None:
        if f.name == "ruby" and "-run" in args and code.split()[:1] == ["httpd"]:
            f.hit("CAT029", f"{f.label} (web server)")
        _inline_code(f, code, ctx)
        return
    if module is not None:
        _python_module(f, module, operands, ctx)
        return
    if not operands and args and all(a in C.VERSION_OPTIONS.get(f.name, ()) or a == "--version" for a in args):
        return  # ``.venv/bin/python -V`` prints a version (the file itself was read: ``facts.exec_file``)
    if not operands or operands[0] in STDIN_FILES:
        if read_stdin_program(f, ctx):
            return
        if f.cmd.pipe_index > 0 or any(r.op in ("<", "<<<", "<&") for r in f.cmd.redirects):
            f.hit("CAT007", f.label)
        else:
            f.hit("CAT027", f"{f.label} (interactive interpreter)")
        return
    script = operands[0]
    if "://" in script:
        _runs_remote_code(f, "runs a remote script", script)
        return
    if dynamic(script):
        f.roles.add("exec_dynamic")
        f.hit("CAT006", f.label)
        return
    run_file(f, resolve(script, f.base, ctx.home), ctx)


def run_file(f: Facts, path: str, ctx: Ctx) -> None:
    """``f`` runs the file at ``path``: one the line writes from literal text just before
    (``cat > /tmp/fix.py <<'EOF' … EOF && python /tmp/fix.py``, see ``planned``) is
    judged by that text as inline code is; any other file by ``exec_file``."""
    if "<<" in ctx.source and _run_planned(f, path, ctx):
        return  # the file may be there already: the line rewrites it before it runs
    exec_file(f, path, ctx)


def _run_planned(f: Facts, path: str, ctx: Ctx) -> bool:
    """Judge the literal text the line wrote to ``path`` (and to the other files of the
    same language it wrote, which the program may import) as inline code. False when
    ``path`` is no such file, or no model reads its runner's language."""
    from ..planned import planned_files
    from ..scripts import language_of, runner_of, syntax_only

    files = planned_files(f, path, ctx)
    if files is None:
        return False
    head = f.cmd.argv[0] if f.cmd.argv else ""
    runner = runner_of(f.name, path, resolve(head, f.base, ctx.home) if "/" in head else head)
    if runner is None:
        return False
    language = runner or language_of(files[path], path)
    if language is None:
        return False
    f.at_least(L)
    f.roles.add("runs_planned")  # the defaults layer: what runs after the write is known
    if runner and syntax_only(runner, f.cmd.argv[1:]):
        return True
    for other, text in files.items():
        if other != path and language_of("", other) != language_of("", path):
            continue  # not a module the program can import (notes.md, data.json)
        if language == "sh":
            f.nested.append(text)
        else:
            _inline_code(f, text, ctx, language)
    return True


#: node options whose value is code node loads before the program, wherever they stand
#: on the line (after ``-e`` too); ``--env-file`` may set ``NODE_OPTIONS``.
NODE_LOADS = frozenset({"-r", "--require", "--import", "--loader", "--experimental-loader", "--env-file"})
_NODE_CODE = frozenset({"-e", "--eval", "-p", "--print"})


def node_loads(f: Facts, args: tuple[str, ...], ctx: Ctx, depth: int = 0) -> None:
    """The code node's options load (``--import URL``, ``-r FILE``, ``--loader``, and
    those in ``NODE_OPTIONS``), judged as what it is: a ``data:`` URL is inline code, an
    http(s) URL fetched code, a file a script (``run_file``); a bare package name
    (``-r dotenv/config``) is an installed module, as ``require`` of it is. Options after
    a script name are the script's own; after ``-e CODE`` they are still node's."""
    if depth == 0:
        for name, value in f.cmd.assignments:
            if name == "NODE_OPTIONS":
                node_loads(f, _node_options_words(value), ctx, 1)
    value_opts = C.INTERPRETER_VALUE_OPTS.get("node", frozenset())
    i = 0
    while i < len(args):
        arg = args[i]
        opt, eq, attached = arg.partition("=")
        if arg == "--":
            return
        if opt in NODE_LOADS and opt.startswith("--") and eq:
            _node_load(f, opt, attached, ctx, depth)
        elif arg in NODE_LOADS:
            if i + 1 < len(args):
                _node_load(f, arg, args[i + 1], ctx, depth)
            i += 1
        elif arg in _NODE_CODE or arg in value_opts or (arg.startswith("-") and not arg.startswith("--") and arg[-1] in "ep"):
            i += 1  # its value is code or a setting, not a script
        elif not arg.startswith("-") and not any(a in _NODE_CODE or a.startswith(("--eval=", "--print=")) for a in args[:i]):
            return  # the script: what follows is its own
        i += 1


def _node_load(f: Facts, opt: str, value: str, ctx: Ctx, depth: int) -> None:
    from urllib.parse import unquote

    if opt == "--env-file":
        if depth == 0:
            _node_env_file(f, resolve(value, f.base, ctx.home), ctx)
        return
    if value.startswith("data:"):
        head, _, body = value.partition(",")
        if head.endswith(";base64"):
            import base64
            import binascii

            try:
                code = base64.b64decode(unquote(body), validate=False).decode("utf-8", "replace")
            except (binascii.Error, ValueError):
                f.hit("CAT006", f"{f.label} ({opt} of a data: URL that does not decode)")
                return
        else:
            code = unquote(body)
        _inline_code(f, code, ctx, "node")
        return
    if value.startswith(("http://", "https://")):
        _runs_remote_code(f, f"{opt} loads code from {value}", value)
        return
    path = value.removeprefix("file://")
    if path.startswith(("/", "./", "../", "~")) or path.endswith((".js", ".mjs", ".cjs", ".ts", ".mts", ".cts")):
        if dynamic(path):
            f.hit("CAT006", f"{f.label} ({opt} of a computed name)")
            return
        run_file(f, resolve(path, f.base, ctx.home), ctx)


def _node_env_file(f: Facts, path: str, ctx: Ctx) -> None:
    """``--env-file FILE``: a ``NODE_OPTIONS`` line in it loads code as the option does."""
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            text = fh.read(65536)
    except OSError:
        return  # node stops: the file is missing
    for line in text.splitlines():
        key, eq, value = line.strip().removeprefix("export ").partition("=")
        if eq and key.strip() == "NODE_OPTIONS":
            node_loads(f, _node_options_words(value.strip().strip("'\"")), ctx, 1)


def _node_options_words(value: str) -> tuple[str, ...]:
    """``NODE_OPTIONS`` split as node splits it: at spaces, with double quotes (and
    backslash escapes inside them) grouping; single quotes are plain characters."""
    words: list[str] = []
    word, quoted, i, any_text = "", False, 0, False
    while i < len(value):
        ch = value[i]
        if quoted and ch == "\\" and i + 1 < len(value):
            word += value[i + 1]
            i += 2
            continue
        if ch == '"':
            quoted, any_text = not quoted, True
        elif ch.isspace() and not quoted:
            if word or any_text:
                words.append(word)
            word, any_text = "", False
        else:
            word += ch
        i += 1
    if word or any_text:
        words.append(word)
    return tuple(words)


#: java options that take a value (the class path ones name where classes come from).
_JAVA_VALUES = frozenset({"-cp", "-classpath", "--class-path", "-p", "--module-path", "-m", "--module", "-jar",
                          "--add-modules", "-d", "--source", "-javaagent"})


def _java_class(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    """``java NAME`` runs the class NAME from the class path: the working folder unless
    ``-cp`` or ``$CLASSPATH`` say otherwise. When ``NAME.class`` is not in the folder and
    no class path is given, the class comes from ``$CLASSPATH``, which bastion cannot see:
    code from outside what it can read asks (a ``.java`` source file or a jar is judged
    as before)."""
    import os
    import posixpath

    i = 0
    while i < len(args):
        arg = args[i]
        if arg in _JAVA_VALUES or arg.startswith(("-cp", "-classpath", "--class-path", "-jar")):
            return  # a class path or a jar named: judged as before
        if arg.startswith("-"):
            i += 1
            continue
        if arg.endswith(".java") or "/" in arg:
            return
        if not os.path.exists(posixpath.join(f.base, arg.replace(".", "/") + ".class")):
            f.hit("CAT006", f"{f.label} (runs class {arg} from $CLASSPATH: not in this folder)")
        return


def _code_in_cluster(arg: str, code_opts: frozenset[str], value_opts: frozenset[str]) -> str | None:
    """``perl -ne CODE`` / ``python -Bc CODE``: the code option inside a short cluster.

    Returns the attached code (``-eCODE``), ``""`` when the code is the next argument,
    or None when the cluster has no code option (a value option ends the scan:
    ``-MData::Dumper`` is a module, not ``-e``)."""
    letters = arg[1:]
    for k, letter in enumerate(letters):
        opt = "-" + letter
        if opt in code_opts:
            return letters[k + 1 :]
        if opt in value_opts:
            return None
    return None


def _deno(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    ops = [a for a in args if not a.startswith("-")]
    sub = ops[0] if ops else ""
    if sub == "eval" and len(ops) > 1:
        _inline_code(f, ops[1], ctx)
        return
    if sub in ("fmt", "lint", "check", "test", "bench", "doc", "info", "task", "compile", "bundle", "cache", "types", "coverage", "--version"):
        f.at_least(L)
        return
    target = ops[1] if sub == "run" and len(ops) > 1 else (ops[0] if ops else "")
    if "://" in target:
        f.hit("CAT006", f"{f.label} (runs a remote script)")
        f.hit("CAT001", f.label)
        return
    if target:
        exec_file(f, resolve(target, f.base, ctx.home), ctx)
    else:
        f.hit("CAT027", f.label)


def python_module_command(f: Facts, module: str, operands: list[str], ctx: Ctx) -> bool:
    """``python -m MODULE ARGS`` where MODULE is the Python package of a command the
    catalog knows (``catalog.MODULE_COMMANDS``: ``django`` is ``django-admin``, ``sqlfluff``
    is ``sqlfluff``): judged as that command typed directly. False when it is not one
    (the caller judges the module as code it cannot see)."""
    name = C.MODULE_COMMANDS.get(module)
    if name is None:
        return False
    judge_as(f, (name, *operands), ctx)
    return True


def _python_module(f: Facts, module: str, operands: list[str], ctx: Ctx) -> None:
    from ..scripts import find_module

    # a module in the command's folder wins over an installed one of the same name
    # (``json/tool.py`` written here runs for ``python -m json.tool``), then PYTHONPATH
    # inside the workspace and a src layout's ``src/`` (``scripts.module_roots``): read and judged
    root, files = find_module(module, f.base, f.cmd.assignments, ctx)
    if files:
        for path in files:
            exec_file(f, path, ctx, top=root)
        return
    # ``python -m zipfile -l x.zip`` only lists, ``twine check`` only checks: the module
    # with its first word wins over the module alone (``PYTHON_MODULES`` lists both).
    value = C.PYTHON_MODULES.get(f"{module} {operands[0]}") if operands else None
    if value is not None:
        apply_value(f, value, f"python -m {module} {operands[0]}")
        return
    value = C.PYTHON_MODULES.get(module)
    if value is None:
        if not python_module_command(f, module, operands, ctx):  # ``python -m django`` is django-admin
            f.hit("CAT006", f"{f.label} (runs module {module})")
        return
    if module in ("pytest", "tox", "nox"):  # what they run is read like ``pytest`` itself
        from ..tasks import add_runs_as

        add_runs_as(f, module, tuple(operands), ctx)
    if module == "pip":
        sub = SimpleCommand(("pip", *operands), f.cmd.assignments, f.cmd.redirects, f.cmd.wrappers, f.cmd.cwd, f.cmd.origin, f.cmd.text, f.cmd.depth, f.cmd.pipeline, f.cmd.pipe_index)
        inner = ctx.analyser.classify(sub, ctx)  # the entry point dispatches back here
        f.tier, f.hits, f.known = inner.tier, inner.hits, inner.known
        return
    apply_value(f, value, f"python -m {module}")


def read_stdin_program(f: Facts, ctx: Ctx) -> bool:
    """``f`` reads its program from stdin: mark it (``exec_stdin``: what a pipeline feeds
    it is code, :func:`analyse._fed_programs`) and read a here-document or here-string
    given to it as that program. True when one was read."""
    f.roles.add("exec_stdin")
    if any(r.op in ("<<", "<<-") for r in f.cmd.redirects):
        for body in heredoc_bodies(ctx.source, f.cmd.name):
            _inline_code(f, body, ctx)
        return True
    strings = [r.target for r in f.cmd.redirects if r.op == "<<<"]
    for text in strings:  # ``ruby <<< 'code'``: the here-string is the program
        _inline_code(f, text, ctx)
    return bool(strings)


def read_program_text(f: Facts, code: str, ctx: Ctx) -> None:
    """Judge ``code`` as the program ``f``'s interpreter runs (text fed to its stdin by
    an earlier pipeline stage: ``echo 'code' | ruby``, ``cat <<EOF | python3``)."""
    _inline_code(f, code, ctx)


def _inline_code(f: Facts, code: str, ctx: Ctx, language: str | None = None) -> None:
    """Judge a program by what it does: a code model (``models.read_program``) gives its
    effects as shell equivalents, judged like typed commands; the lexical scan below
    still runs (a model may not follow every spelling). A program the model reads as
    inert (imports, printing, reading) runs without a question. ``language``: the
    program's, when not the command's own name (``./fix.py``)."""
    program = read_program(language or f.name, code)
    if program is not None:
        f.roles.add("program_read")
    if program is not None and not program.opaque and _harmless(f, program, code, ctx):
        _program(f, program)
        return
    f.hit("CAT006", f"{f.label} (inline code)")
    if program is not None:
        _program(f, program)
    code = fold_home(code)
    live = live_code(code, LANGUAGES.get(language or f.name, ""), lambda raw: _ordinary_file(raw, f, ctx))  # printed text is data
    intent = code_intents(code, live)
    _effects(f, code, intent.commands, ctx)
    if intent.reverse_shell:
        f.hit(cell("connect_shell", "network"), f.label)
    if intent.bind_shell:
        f.hit(cell("listen_shell", "network"), f.label)
    if intent.fork_bomb:
        f.hit(cell("fork", "endless"), f.label)
    if intent.download_exec:
        f.hit(cell("run", "downloaded"), f"{f.label} (code fetched and evaluated)")
    if intent.library_load:
        f.hit(cell("run", "native_library"), f"{f.label} (loads a native library)")
    if intent.network:
        f.roles.add("send")
        f.hit(cell("send", "network"), f.label)
    if intent.env_dump:
        f.roles.add("env_dump")
        f.hit(cell("read", "environment"), f.label)
        if intent.network:
            f.hit(cell("send", "environment"), f"{f.label} (environment sent over the network)")
    for raw in intent.recursive_deletes:
        _judge(f, "delete_tree", resolve(raw, f.base, ctx.home), ctx)
    for raw in intent.deletes:
        _judge(f, "delete", resolve(raw, f.base, ctx.home), ctx)
    for raw in intent.paths:
        path = resolve(raw, f.base, ctx.home)
        level = secret_level(path, ctx.home)
        if level:
            f.secrets.append((path, level))
            target = target_of("read", path, ctx.home, ctx.roots, ctx.inside(path))
            finding = cell("send", "secret") if level >= 2 and intent.network else cell("read", target)
            f.hit(finding, f"{f.label} ({path})")
        plevel = persistence_level(path, ctx.home)
        if plevel:
            writes = plevel >= 2 and _WRITE_CALL.search(code)
            f.hit(cell("write", "backdoor" if writes else "startup"), f"{f.label} ({'writes ' if writes else ''}{path})")
    f.nested.extend(intent.commands)
    if intent.shell_exec and (SHELL_WORD.search(live) or any(p in SHELL_PATHS for p in intent.paths)):
        f.spawns_shell = True


def _harmless(f: Facts, program: ProgramEffects, code: str, ctx: Ctx) -> bool:
    """Code whose effects are all harmless is harmless: the model found no process, send,
    socket, native library or eval it cannot follow (``program.harmless``; calls into
    libraries it does not know are trusted as ``python script.py`` is), nothing it hands
    such a call names a secret or a startup file, and the project files it loads by a
    relative path are in the workspace. Its file effects stay in ``program.shell``,
    judged like the typed commands (a data file written in the project is allowed, a code
    edit asks in default mode as the file layers say, a write outside the workspace asks).
    The project modules it imports are read and judged as a script's imports are (an
    inert program's too: ``import evil`` runs evil.py)."""
    if not (program.harmless or program.inert):
        return False
    for raw in program.handed:
        path = resolve(fold_home(raw), f.base, ctx.home)
        if secret_level(path, ctx.home) or persistence_level(path, ctx.home):
            return False
    if program.shell and _touches_protected(f, program.shell, ctx):
        return False
    for raw in program.modules:
        if not ctx.inside(resolve(raw, f.base, ctx.home)):
            return False
    from ..scripts import imported_files

    files = imported_files(f.name, code, f"{f.base.rstrip('/')}/-", f.base, ctx)
    if any(not ctx.inside(origin) for _, _, origin in files):
        return False  # code from outside the workspace, as ``python /tmp/x.py`` asks
    f.runs.extend(files)
    return True


def _touches_protected(f: Facts, lines: list[str], ctx: Ctx) -> bool:
    """A line of the program names a protected or startup file (``.bashrc`` anywhere, a git
    hook): such code is not called harmless, and the full inline check judges it."""
    from ....paths.match import protected_rows

    for line in lines:
        if line.startswith("cat -- "):
            continue  # a read: the shell judges it
        try:
            words = _words(line)
        except ValueError:
            return True
        for word in words[1:]:
            if word and not word.startswith("-") and len(word) < 4096:
                path = resolve(word, f.base, ctx.home)
                if persistence_level(path, ctx.home) or protected_rows(path, ctx.home):
                    return True
    return False


#: Characters that make a line's words differ from its space-separated parts (quotes, escapes, other blanks).
_QUOTING = frozenset("'\"\\\t\r\n")


def _words(line: str) -> list[str]:
    """The words of a shell line a model wrote, as ``shlex.split`` gives them: most lines
    quote nothing (``rm -f -- build/x.o``), and those are split at their spaces."""
    if _QUOTING.isdisjoint(line):
        return [word for word in line.split(" ") if word]
    import shlex

    return shlex.split(line)


def _judge(f: Facts, effect: str, path: str, ctx: Ctx) -> None:
    """Raise the finding of the effect × target table for ``effect`` on ``path``."""
    target = target_of(effect, path, ctx.home, ctx.roots, ctx.inside(path))
    f.hit(cell(effect, target), f"{f.label} → {path}")


def _program(f: Facts, program: ProgramEffects) -> None:
    """Record what a code model found: its shell equivalents go to ``f.nested`` (as one
    script, so a secret read and a send in it meet), its flags become findings."""
    label = f"{f.label} ({program.language} code)"
    if program.shell:
        f.nested.append("\n".join(program.shell))
    if program.prints is not None:
        f.prints = program.prints
    if program.sends:
        f.roles.add("send")
        f.hosts.extend(h for h in (host_of(s) or s for s in program.sends) if h)
    if program.env_dump:
        f.roles.add("env_dump")
    for code, note in program_findings(program):
        f.hit(code, f"{label}: {note}" if note else label)
    for what in program.opaque[:1]:
        f.hit(cell("run", "inline"), f"{label}: {what}")


def _ordinary_file(raw: str, f: Facts, ctx: Ctx) -> bool:
    """A file the code touches is a plain workspace file that nothing runs by itself
    (not a git hook, a startup file or a planted config): text written there is data."""
    path = resolve(raw, f.base, ctx.home)
    return ctx.inside(path) and not persistence_level(path, ctx.home)


def _effects(f: Facts, code: str, commands: list[str], ctx: Ctx) -> None:
    """What the code does through its process, file and permission calls
    (``effects.py``): shell strings it runs are analysed as shell (``commands`` ends up
    in ``f.nested``), fork loops, block-device writes, setuid on a shell."""
    for command in shell_commands(code):
        if command not in commands:
            commands.append(command)
    if fork_loop(code):
        f.hit("HB004", f"{f.label} (fork in an endless loop)")
    for raw in device_writes(code):
        if is_block_device(raw):
            f.hit("HB003", f"{f.label} (writes {raw})")
    for mode, raw in setid_chmods(code):
        if not grant_root(f, [raw], ctx, f"mode {mode}"):
            f.hit("CAT005", f"{f.label} (setuid/setgid {raw})")


def check_shell_server(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    """``telnetd -l /bin/sh`` (also as ``busybox telnetd``): a listener whose login
    program is a shell serves that shell to anyone who connects (bind shell)."""
    f.hit("CAT029", f.label)
    f.roles.add("listen")
    options = C.SHELL_SERVERS.get(f.name, ())
    for k, arg in enumerate(args):
        value = args[k + 1] if arg in options and k + 1 < len(args) else next((arg[len(o):] for o in options if arg.startswith(o) and len(arg) > len(o)), "")
        if value and (value in SHELL_PATHS or C.canonical_name(value.rsplit("/", 1)[-1]) in C.SHELLS):
            f.hit("HB007", f"{f.label} (serves {value})")
            return


_WRITE_CALL = LazyPattern(r"file_put_contents|fputs|fwrite|download\s*\(|createWriteStream|FileWriter|OpenFile|writeFileSync|copyfile|urlretrieve|\.write\s*\(|open\s*\([^)]*[\"'][wa]\+?[\"']|File\.write|writeFile|>>?\s*[\"']|print\s+\w+\s|IO\.write|spit\b")


def check_shell(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    """A shell the parser did not replace by its commands: a script, stdin, or a -c
    string it could not read."""
    parsed = parse_args(args, frozenset({"-o", "+o", "-O", "+O", "--rcfile", "--init-file"}), stop_at_operand=True)
    if any(o == "-c" or (o.startswith("-") and not o.startswith("--") and "c" in o) for o, _ in parsed.options):
        f.roles.add("exec_dynamic")
        f.hit("CAT006", f"{f.label} (shell string)")
        if parsed.operands:
            f.nested.append(parsed.operands[0])
        return
    if not parsed.operands or parsed.operands[0] in ("-", "/dev/stdin") or parsed.has("-s"):
        f.roles.add("exec_stdin")
        if f.cmd.pipe_index > 0 or any(r.op in ("<", "<&", "<<<") for r in f.cmd.redirects):
            f.hit("CAT007", f.label)
        else:
            f.hit("CAT006", f"{f.label} (interactive shell)")
        return
    script = parsed.operands[0]
    if script.startswith(("<(", "/dev/fd/")) or dynamic(script):
        f.roles.add("exec_dynamic")
        f.hit("CAT006", f.label)
        return
    run_file(f, resolve(script, f.base, ctx.home), ctx)


def check_pager(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    """``less FILE``, ``more FILE``, ``man git``: read-only. A ``+CMD`` initial command
    (``less '+!sh'``) runs pager commands, which include shell escapes; a few options
    name a command, a key file or a log file (``catalog.PAGERS``)."""
    for arg in args:
        if arg.startswith("+") and len(arg) > 1 and f.name != "man":
            f.hit("CAT006", f"{f.label} ({arg} runs pager commands)")
            break
    for arg, code in risky_options(args, C.PAGERS.get(f.name, {})):
        f.hit(code, f"{f.name} {arg}")


def check_interactive(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    if f.name == "emacs" and _emacs_batch(f, args, ctx):
        return
    f.hit("CAT027", f.label)
    if any("!" in a and SHELL_WORD.search(a) for a in args):
        f.spawns_shell = True
    for arg in args:
        if arg in ("-c", "--cmd", "-S", "--eval", "-P", "--pager", "-H", "--html", "-x", "-l", "--load") or (arg.startswith("+") and len(arg) > 1) or arg.startswith("--eval="):
            f.hit("CAT006", f"{f.label} ({arg} runs commands)")
            break


def _emacs_batch(f: Facts, args: tuple[str, ...], ctx: Ctx) -> bool:
    """``emacs --batch --eval '(…)'`` is not an editor session but a Lisp program, which
    the code model reads; a Lisp file it loads or runs asks. False when not batch."""
    if not any(a in ("--batch", "-batch") for a in args):
        return False
    for code in _option_values(args, ("--eval", "-eval")):
        _inline_code(f, code, ctx)
    loads = _option_values(args, ("-l", "--load", "--script", "-script"))
    if loads and all(name in STDIN_FILES for name in loads):
        if not read_stdin_program(f, ctx):
            f.hit("CAT007", f"{f.label} (Lisp read from stdin)")
    elif loads or any(a in ("-f", "--funcall") or a.startswith("--funcall=") for a in args):
        f.hit("CAT006", f"{f.label} (runs Lisp from a file or a function)")
    return True


def _option_values(args: tuple[str, ...], names: tuple[str, ...]) -> list[str]:
    """The values of ``names`` given as ``--opt VALUE`` or ``--opt=VALUE``."""
    out = []
    for k, arg in enumerate(args):
        if arg in names and k + 1 < len(args):
            out.append(args[k + 1])
        elif "=" in arg and arg.split("=", 1)[0] in names:
            out.append(arg.split("=", 1)[1])
    return out


def apply_program(f: Facts, program: ProgramEffects) -> None:
    """What a code model found in a program another check extracted (an awk program):
    its shell equivalents and flags, as for interpreter code."""
    f.roles.add("program_read")
    _program(f, program)


def check_tex(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    """Compiling a project's ``.tex`` file is a build (routine). TeX source given on the
    command line (an operand starting with ``\\`` or ``&``), ``--shell-escape``, and
    latexmk's options that name the programs it runs (``-pdflatex=CMD``, ``-e PERL``,
    ``-r RCFILE``) run code."""
    f.at_least(L)
    joined = " ".join(args)
    if any(a.lstrip("-") in ("shell-escape", "enable-write18") for a in args) or "\\write18" in joined:
        f.hit("CAT006", f"{f.label} (shell escape)")
    elif f.name == "latexmk" and any(a in _LATEXMK_CODE or a.split("=", 1)[0] in _LATEXMK_COMMANDS for a in args):
        f.hit("CAT006", f"{f.label} (latexmk runs the given command or Perl code)")
    elif any(a.startswith(("\\", "&")) for a in args):
        f.hit("CAT006", f"{f.label} (TeX code given inline)")
    elif "\\openout" in joined or "\\write" in joined:
        f.hit("CAT020", f"{f.label} (TeX writes files)")


#: latexmk options that take Perl code or an rc file (Perl) to run.
_LATEXMK_CODE = frozenset({"-e", "-r"})
#: latexmk options that set the command it runs for a step (``-pdflatex="sh #"``).
_LATEXMK_COMMANDS = frozenset({"-latex", "-pdflatex", "-xelatex", "-lualatex", "-dvilualatex", "-pdfxelatex", "-pdflualatex"})


def check_credential_tool(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    flags = {a for a in args if a.startswith("-")}
    if f.name in ("gpg", "gpg2") and flags & {"--export-secret-keys", "--export-secret-subkeys"}:
        f.hit("HB009", f"{f.label} (exports private keys)")
        return
    if f.name == "ssh-keygen" and (flags & {"-l", "-F", "-lf", "-lv", "-E"} or any(a.startswith("-l") for a in flags)):
        return
    if f.name in ("gpg", "gpg2") and flags and all(a.startswith(("--list", "--fingerprint", "-k", "-K", "--version", "--verify")) for a in flags):
        return
    if f.name in ("ssh-keygen", "ssh-add") and flags & {"-D", "-s", "-S", "-e"} and f.name == "ssh-keygen" and "-D" in flags:
        f.hit("CAT021", f"{f.label} (loads a PKCS#11 library)")
        return
    if f.name == "ssh-keyscan":
        check_network(f, args, ctx)
        return
    f.hit("CAT003", f"{f.label} (manages keys or credentials)")


def check_wrapper(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    if f.name == "command" and len(args) == 2 and args[0] in ("-v", "-V"):
        return  # ``command -v git`` only looks one name up
    f.hit("CAT006", f"{f.label} (runs another command)")
    if f.name == "parallel" and args[:1] == (":::",):
        f.nested.extend(a for a in args[1:] if a != ":::")  # each input is a command


def _runs_remote_code(f: Facts, what: str, url: str) -> None:
    """The interpreter runs code it fetches from ``url``: remote code run, and its host."""
    f.hit("CAT006", f"{f.label} ({what})")
    f.hit("CAT001", f.label)
    host = host_of(url)
    if host:
        f.hosts.append(host)

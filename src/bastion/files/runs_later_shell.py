"""The shell side of ``files.runs_later``: code a command line plants without running it.

* Literal text a command writes into a file that runs later (``echo … >> .gitlab-ci.yml``,
  ``cat > .husky/pre-commit <<EOF``, ``printf … | tee -a ~/.bashrc``) is what the parser
  already follows for scripts written then run (``_Walker.files``); it is read as the
  commands it becomes there (``shell.meaning.planted``), so a here-document is judged like
  a Write of the same text.
* A package.json script set from the shell (``npm pkg set scripts.X=…``, ``npm pkg set
  --json 'scripts={…}'``, ``npm set-script X …``, the same with ``pnpm``) is shell that
  ``npm run X`` or, for lifecycle scripts, every ``npm install`` will run.

Only hard blocks come out of here (the layer denies them); anything else about these
writes is the layer's and the shell analysis's ordinary business.
"""

from __future__ import annotations

from .. import fastjson
from ..model import Finding

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..core.context import Context

#: Package managers whose ``pkg set`` / ``set-script`` write package.json scripts.
_NPM_LIKE = frozenset({"npm", "pnpm"})


def shell_plants(ctx: Context, targets: list[str]) -> list[Finding]:
    """Hard blocks planted by the call's command line: text written to ``targets`` (files
    that run later, resolved) and package.json scripts set from the shell."""
    command = ctx.command or ""
    sets_scripts = "pkg" in command or "set-script" in command
    if not targets and not sets_scripts:
        return []  # most lines: nothing written where it runs later, no package.json script set
    from .plants import MAX_CONTENT, command_hard_blocks, planted_hard_blocks

    call = ctx.call
    cwd, roots = call.run_dir, ctx.workspace.roots
    out: list[Finding] = []
    if targets:
        wanted = set(targets)
        for key, text in written_texts(command).items():
            path = ctx.resolve(key, cwd=cwd)
            if path in wanted and text.strip():
                out += planted_hard_blocks(text[:MAX_CONTENT], path, cwd=cwd, home=ctx.home, roots=roots)
    if sets_scripts:
        parsed = ctx.parsed
        for cmd in parsed.commands if parsed is not None else ():
            if cmd.name in _NPM_LIKE:
                for name, script in package_scripts_set(cmd.args):
                    out += command_hard_blocks(script[:MAX_CONTENT], f"package.json script {name!r} ({cmd.name})",
                                               cwd=cwd, home=ctx.home, roots=roots)
    return out


def written_texts(command: str) -> dict[str, str]:
    """Literal text the command line writes, by file as written (relative to the call's
    directory, or absolute, or ``~/…``). Empty when the parser cannot say (the layer then
    asks for a file that runs later, as it does for any write it cannot read)."""
    try:
        from ..shell.syntax.parse import UNKNOWN_CWD, _Ctx, _Walker

        walker = _Walker()
        walker.run(command, _Ctx(), "")
        return {k: v for k, v in walker.files.items() if not k.startswith(("<(", UNKNOWN_CWD))}
    except Exception:  # noqa: BLE001 - unknown text: no finding here, the layer still asks
        return {}


def package_scripts_set(args: tuple[str, ...]) -> list[tuple[str, str]]:
    """``(name, script)`` for each package.json script ``args`` set: ``pkg set
    scripts.X=…`` (or ``scripts[X]=…``, or ``--json scripts={…}``), ``set-script X …``."""
    words = [a for a in args if not a.startswith("-")]
    if words[:1] == ["set-script"] and len(words) >= 3:
        return [(words[1], words[2])]
    if words[:2] != ["pkg", "set"]:
        return []
    as_json = "--json" in args
    out: list[tuple[str, str]] = []
    for word in words[2:]:
        key, eq, value = word.partition("=")
        if not eq or not key.startswith("scripts"):
            continue
        name = key[len("scripts"):].strip(".[]\"'")
        data: object = value
        if as_json:
            try:
                data = fastjson.loads(value)
            except ValueError:
                data = value
        if isinstance(data, dict):
            out += [(str(k), v) for k, v in data.items() if isinstance(v, str)]
        elif isinstance(data, str):
            out.append((name or "?", data))
    return out

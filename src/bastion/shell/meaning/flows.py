"""What flows from one command into another, where it decides what runs.

Each rule here needs the whole script, not one command:

* ``echo /usr | parallel rm -rf {}``: parallel reads its arguments from stdin like
  xargs; with a literal input the command is judged as it will run;
* ``find ~ -maxdepth 1 | xargs rm -rf``: what find prints is what is deleted, so it is
  judged like ``find ~ -maxdepth 1 -delete`` (:mod:`.checks.find_expr`); ``ls -A ~ |
  xargs -I% rm -rf ~/%`` deletes every entry ls names, like ``rm -rf ~/*``;
* ``find / -exec sh -c 'rm -rf "$1"' _ {} \\;``: the script's ``$1`` is each start
  point; ``sh -c SCRIPT NAME ARGS…`` gets ``$0``/``$1``/``$@`` from the words after it;
* ``printf '!cmd\\nq\\n' | ed -s``: ed and ex read editor commands from stdin, and a
  ``!cmd`` line runs ``cmd`` in a shell; ``make -f -`` reads a makefile, whose recipes
  are shell;
* ``curl -o /tmp/x.so … && LD_PRELOAD=/tmp/x.so ls``: a variable of
  :data:`~bastion.shell.syntax.env.CODE_LOADING_ENV` naming a file downloaded earlier
  runs downloaded code, and ``BASH_ENV=<(curl …) bash -c …`` sources what it fetches.

:func:`fed_effects` returns the hard blocks it finds and the shell texts to analyse
again (the caller owns the nested analysis and its depth limit).
"""

from __future__ import annotations

from dataclasses import replace

from ..catalog import catalog as C
from ..syntax.env import loaded_code
from ..syntax.lazyre import LazyPattern
from ..syntax.literal import output as literal_output
from ..syntax.quoting import join as shell_join, quote as shell_quote
from .facts import STDIN_FILES, Ctx, Facts
from .paths import find_roots, resolve

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from collections.abc import Sequence

__all__ = ["fed_effects", "positional_script", "ed_shell_lines"]

#: Programs that read editor commands from stdin; ``!cmd`` runs cmd in a shell.
_LINE_EDITORS = frozenset({"ed", "ex"})
#: Commands that delete what they are given.
_DELETERS = frozenset({"rm", "unlink", "rmdir", "shred", "srm", "wipe"})
#: find actions that only print (dropped when find's output is deleted instead).
_PRINTS = frozenset({"-print", "-print0", "-ls"})

#: parallel's replacement strings: ``{}``, ``{1}``, ``{.}``, ``{/}``, ``{//}``, ``{/.}``.
_PLACEHOLDER = LazyPattern(r"\{(?:\d+|\.|/|//|/\.)?\}")

Hit = tuple[str, str, str]  # (code, detail, command label)
Text = tuple[str, str]  # (shell text, where it came from)


def fed_effects(facts: Sequence[Facts], ctx: Ctx) -> tuple[list[Hit], list[Text]]:
    """Hard blocks and shell texts that come from what flows between ``facts``."""
    hits: list[Hit] = []
    texts: list[Text] = []
    stages: dict[tuple[int, int], Facts] = {}
    for f in facts:  # the outermost command of each stage (what xargs/parallel run is deeper)
        if f.cmd.pipeline >= 0:
            stages.setdefault((f.cmd.pipeline, f.cmd.pipe_index), f)
    downloaded: set[str] = set()
    fetching_subst = any(f.cmd.origin == "process-substitution" and "fetch" in f.roles for f in facts)
    for i, f in enumerate(facts):
        before = stages.get((f.cmd.pipeline, f.cmd.pipe_index - 1)) if f.cmd.pipeline >= 0 else None
        if "parallel" in f.cmd.wrappers and before is not None:
            texts.extend(_parallel(f, before))
        if "xargs" in f.cmd.wrappers and f.name in _DELETERS and before is not None and before.name in ("find", "bfs"):
            hits.extend(_find_piped_to_deleter(before, f, ctx))
        elif "xargs" in f.cmd.wrappers and f.name in _DELETERS and before is not None and before.name in _LISTERS:
            hits.extend(_listing_piped_to_deleter(before, f, ctx))
        if f.cmd.origin == "bash -c" and "find" in f.cmd.wrappers:
            texts.extend(_find_exec_script(f, facts[:i]))
        if f.name in ("make", "gmake") and _makefile_on_stdin(f.cmd.argv[1:]):
            from ..syntax.make_args import make_recipes

            text = _stdin_text(f, before, ctx)
            if text and (recipes := make_recipes(text)):
                texts.append((recipes, f"{f.name} -f - recipe"))
        if f.name in _LINE_EDITORS:
            text = _stdin_text(f, before, ctx)
            for line in ed_shell_lines(text or ""):
                texts.append((line, f"{f.name} ! command"))
        for name, item in loaded_code(f.cmd.assignments) if f.cmd.assignments else ():
            if "<(" in item or "$(" in item or "`" in item:
                if fetching_subst:
                    hits.append(("HB005", f"{name}= runs fetched code for {f.label}", f.label))
            elif resolve(item, f.base, ctx.home) in downloaded:
                hits.append(("HB005", f"{name}={item} loads a downloaded file into {f.label}", f.label))
        downloaded.update(f.downloads)
        if "fetch" in f.roles:
            downloaded.update(a.resolved for a in f.paths if a.op == "write")
    return hits, texts


def _literal(f: Facts) -> str | None:
    if f.prints is not None:
        return f.prints
    if f.name in ("echo", "printf"):
        return literal_output(f.cmd.argv)
    return None


def _stdin_text(f: Facts, before: Facts | None, ctx: Ctx) -> str | None:
    """The literal text on ``f``'s stdin: its here-string or here-document, or what the
    stage before prints."""
    for r in f.cmd.redirects:
        if r.op == "<<<":
            return r.target
    if any(r.op in ("<<", "<<-") for r in f.cmd.redirects):
        from .inline import heredoc_bodies

        bodies = heredoc_bodies(ctx.source, f.name)
        return "\n".join(bodies) if bodies else None
    return _literal(before) if before is not None else None


def _makefile_on_stdin(args: Sequence[str]) -> bool:
    """``make -f -``: the makefile is read from stdin (its recipes are shell)."""
    for k, arg in enumerate(args):
        value = args[k + 1] if arg in ("-f", "--file", "--makefile") and k + 1 < len(args) else (
            arg.split("=", 1)[1] if arg.startswith(("--file=", "--makefile=")) else (arg[2:] if arg.startswith("-f") and len(arg) > 2 else None))
        if value in STDIN_FILES:
            return True
    return False


#: An ed/ex line that runs a shell command: ``!cmd``, ``w !cmd``, ``r !cmd``, ``e !cmd``.
_ED_SHELL_LINE = LazyPattern(r"\s*(?:[.$,;\d]*\s*(?:[wreWE]\s*)?)?!(.+)")


def ed_shell_lines(text: str) -> list[str]:
    """The shell commands of ``!cmd`` lines in an ed/ex script (``w !cmd``, ``r !cmd``
    and ``e !cmd`` run one too)."""
    out = []
    for line in text.split("\n"):
        match = _ED_SHELL_LINE.match(line)
        if match and match.group(1).strip():
            out.append(match.group(1))
    return out


def _parallel(f: Facts, before: Facts) -> list[Text]:
    """``echo /usr | parallel rm -rf {}``: each input line is an argument (``:::``
    inputs are read from the command line instead, elsewhere)."""
    text = _literal(before)
    if text is None:
        return []
    argv = list(f.cmd.argv)
    out = []
    for line in [w for w in text.split("\n") if w.strip()][:8]:
        if any("{" in a for a in argv):
            run = [_PLACEHOLDER.sub(line.replace("\\", "\\\\"), a) for a in argv]
        else:
            run = [*argv, line]
        shelled = any(w in C.SHELLS for w in f.cmd.wrappers[f.cmd.wrappers.index("parallel"):])
        out.append((" ".join(run) if shelled else shell_join(run), f"parallel with input {line!r}"))
    return out


def _find_piped_to_deleter(find: Facts, deleter: Facts, ctx: Ctx) -> list[Hit]:
    """``find ROOT … | xargs rm -rf``: judged as ``find ROOT … -delete``."""
    args = [a for a in find.cmd.argv[1:] if a not in _PRINTS]
    if any(a.startswith(("-exec", "-ok", "-delete", "-printf", "-fprint")) for a in args):
        return []
    argv = (find.cmd.argv[0], *args, "-delete")
    fed = ctx.analyser.classify(replace(find.cmd, argv=argv, pipeline=-1), ctx)
    where = f"{find.label} | {deleter.label}"
    # what it deletes is judged by the files layer, as for ``find … -delete``
    deleter.paths.extend(a for a in fed.paths if a.op == "delete" and a not in deleter.paths)
    return [(h.code, f"{h.detail} [{where}]", deleter.label) for h in fed.hits if h.code.startswith("HB")]


#: Commands that print the names of a directory's entries, one per line.
_LISTERS = frozenset({"ls", "dir", "vdir", "eza", "exa", "lsd"})
#: ``xargs -I TOKEN`` / ``-ITOKEN`` / ``--replace[=TOKEN]`` / ``-i[TOKEN]``.
_XARGS_REPLACE = LazyPattern(r"\bxargs\b[^|;&\n]*?(?:\s-I\s*(\S+)|\s--replace(?:=(\S+))?|\s-i(\S*))")


def _listing_piped_to_deleter(lister: Facts, deleter: Facts, ctx: Ctx) -> list[Hit]:
    """``ls -A ~ | xargs -I% rm -rf ~/%``: each name ls prints takes the place of the
    replace token, so every entry of the listed folder is deleted: judged as the
    deleter with the token replaced by ``*`` (``rm -rf ~/*``)."""
    match = _XARGS_REPLACE.search(ctx.source)
    if match is None:
        return []
    token = match.group(1) or match.group(2) or match.group(3) or "{}"
    if not any(token in a for a in deleter.cmd.argv[1:]):
        return []
    argv = (deleter.cmd.argv[0], *(a.replace(token, "*") for a in deleter.cmd.argv[1:]))
    wrappers = tuple(w for w in deleter.cmd.wrappers if w != "xargs")
    fed = ctx.analyser.classify(replace(deleter.cmd, argv=argv, wrappers=wrappers, pipeline=-1), ctx)
    where = f"{lister.label} | {deleter.label}"
    deleter.paths.extend(a for a in fed.paths if a.op == "delete" and a not in deleter.paths)
    return [(h.code, f"{h.detail} [{where}]", deleter.label) for h in fed.hits if h.code.startswith("HB")]


def _find_exec_script(f: Facts, earlier: Sequence[Facts]) -> list[Text]:
    """``find ROOT -exec sh -c SCRIPT NAME {} \\;``: SCRIPT with its positional
    parameters set to ``NAME ROOT`` for each start point."""
    parent = next((p for p in reversed(earlier) if p.name in ("find", "bfs") and p.cmd.depth < f.cmd.depth), None)
    if parent is None:
        return []
    args = parent.cmd.argv[1:]
    out = []
    for k, word in enumerate(args):
        if word not in ("-exec", "-execdir", "-ok", "-okdir"):
            continue
        end = next((j for j in range(k + 1, len(args)) if args[j] in (";", "+")), len(args))
        command = args[k + 1 : end]
        if not any("{}" in a for a in command):
            continue
        for root in find_roots(args):
            if root.rstrip("/") in (".", ".."):
                continue  # never deleted, and ``$1`` being ``.`` says nothing new
            script = positional_script(tuple(a.replace("{}", root) for a in command))
            if script is not None:
                out.append((script, f"{command[0] if command else 'sh'} -c via find -exec on {root}"))
    return out


_POSITIONAL = LazyPattern(r'"\$(\d|@|\*)"|"\$\{(\d+|@|\*)\}"|\$\{(\d+|@|\*)\}|\$(\d|@|\*)')


def positional_script(argv: Sequence[str]) -> str | None:
    """``sh -c SCRIPT NAME ARGS…`` as SCRIPT with ``$0``, ``$1`` … ``$@`` replaced by the
    literal words after it; None when ``argv`` is not such a shell call or uses none."""
    if len(argv) < 3 or argv[0].rsplit("/", 1)[-1] not in C.SHELLS:
        return None
    try:
        at = list(argv).index("-c")
    except ValueError:
        return None
    if at + 1 >= len(argv):
        return None
    script, params = argv[at + 1], list(argv[at + 2 :])
    if not params or "$" not in script:
        return None

    def value(match: re.Match[str]) -> str:
        key = next(g for g in match.groups() if g is not None)
        if key in ("@", "*"):
            return " ".join(shell_quote(p) for p in params[1:])
        index = int(key)
        return shell_quote(params[index]) if index < len(params) else match.group(0)

    return _POSITIONAL.sub(value, script)

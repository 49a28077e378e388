"""``apply_patch`` / ``applypatch`` in a shell command: an edit, judged by its files.

Codex applies a patch given as the command's argument (``apply_patch "*** Begin Patch
…"``) or here-document (``apply_patch <<'EOF' … EOF``, also after ``cd DIR &&``) itself,
and some setups install the same helper as a program. Either way the command writes
the files its patch names, so they become the command's file accesses (written, deleted,
or moved away and written), resolved where the command runs, and meet every file check
a ``Write`` or ``Edit`` meets: protected paths, the workspace boundary, ``Edit(...)``
rules, ``acceptEdits``. The command itself asks like an edit (``CAT039``); the lines it
adds to a file that runs later are analysed as the commands they become.

A patch bastion cannot read here — piped in, read from a file, in a here-string or a
variable — changes files nobody knows: the command is treated as unknown and asks.
"""

from __future__ import annotations

from ....files.patch import PATCH_COMMANDS, patch_additions, patch_changes
from ...syntax.lazyre import LazyPattern
from ..facts import Ctx, Facts, L
from ..inline import heredoc_bodies
from ..paths import PathAccess, resolve
from ..planted import as_commands
from ..targets import persistence_level

__all__ = ["PATCH_COMMANDS", "check_patch", "patch_texts"]


#: A here-document operator (``<<`` or ``<<-``, not the here-string ``<<<``).
_HEREDOC_OP = LazyPattern(r"(?<!<)<<(?!<)")


def patch_texts(f: Facts, args: tuple[str, ...], ctx: Ctx) -> list[str] | None:
    """Every text the command may apply as its patch, or None when the patch comes from
    somewhere bastion cannot see.

    The patch is the argument, or the command's here-document. Which body belongs to
    which command the parser cannot always say (tree-sitter hangs the here-document of
    ``cd DIR && apply_patch <<'EOF'`` on the whole list; inside ``bash -lc "…"`` it is
    in the nested string), so every body of the script counts: more files, never fewer.
    """
    texts = [arg for arg in args if arg]
    redirects = f.cmd.redirects
    heredoc = any(r.op in ("<<", "<<-") for r in redirects)
    other_input = f.cmd.pipe_index > 0 or any(r.op in ("<", "<<<", "<&", "<>") for r in redirects)
    if heredoc or not (texts or other_input):
        bodies = heredoc_bodies(ctx.source)
        if len(_HEREDOC_OP.findall(ctx.source)) > len(bodies):
            return None  # a here-document bastion cannot read (it might be the patch)
        if heredoc and not bodies:
            return None
        texts.extend(bodies)
    return texts or None


def check_patch(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    texts = patch_texts(f, args, ctx)
    if texts is None:
        f.known = False
        f.hit("CAT039", f"{f.label} (the patch comes from input bastion cannot read, so its files are unknown)")
        return
    f.at_least(L)
    changed: list[str] = []
    for op, path in dict.fromkeys(change for text in texts for change in patch_changes(text)):
        f.paths.append(PathAccess(op, path, resolve(path, f.base, ctx.home), f.name))
        changed.append(path)
    for text in texts:
        _planted(f, patch_additions(text), ctx)
    if changed:
        more = f" and {len(changed) - 3} more" if len(changed) > 3 else ""
        f.hit("CAT039", f"{f.name} ({', '.join(changed[:3])}{more})")


def _planted(f: Facts, additions: dict[str, str], ctx: Ctx) -> None:
    """What a patch adds to a file that runs later (a shell start-up file, a git hook, a
    crontab, a unit) is analysed as the commands it becomes, as for ``echo … >> ~/.bashrc``:
    a download-and-run or a reverse shell planted there is denied."""
    for path, text in additions.items():
        resolved = resolve(path, f.base, ctx.home)
        if text.strip() and persistence_level(resolved, ctx.home):
            f.nested.append(as_commands(text, resolved))

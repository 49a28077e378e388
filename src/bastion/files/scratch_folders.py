"""Folders a command line makes below /tmp are its scratch space.

``mkdir -p /tmp/repro && cd /tmp/repro && mkdir -p src/pkg && touch src/__init__.py && echo
'import os' > src/pkg/mod.py && python -c …`` builds a throw-away tree to reproduce a bug.
Plain files below a temp directory are scratch already (``files.check._scratch``); this
module adds the folder itself as a place to *run* commands: a folder that does not exist
when the line is checked and that the line makes holds only what the line puts there,
and the guard sees each of those writes. So commands run there are not "outside the
workspace" (``policy.defaults``).

Not scratch: a folder that already exists (``mkdir -p`` makes nothing: it may be another
program's or another user's, ``/tmp/.X11-unix``), one made inside a folder owned by
someone else, one reached through a link (paths arrive resolved: a link in /tmp into the
home is the home), a home that lives in a temp directory, and any line that makes a link
(``ln -s ~ /tmp/x/h && cd /tmp/x/h``: a folder made here could lead anywhere).
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..core.context import Context
    from ..shell.syntax.script import SimpleCommand

__all__ = ["fresh_top", "made_by", "LINKERS"]

#: Commands that make links: a line with one of them makes no scratch folder.
LINKERS = frozenset({"ln", "link", "mount", "bindfs"})


def made_by(cmd: SimpleCommand, ctx: Context) -> tuple[str, ...]:
    """The folders below a temp directory that ``cmd`` (a ``mkdir``) makes fresh: for each
    path it creates, its topmost part that does not exist yet."""
    if cmd.name != "mkdir" or cmd.wrappers:
        return ()
    return tuple(top for use in ctx.paths_of(cmd) if use.op == "write" and (top := fresh_top(use.path, ctx.home)))


def fresh_top(path: str, home: str) -> str | None:
    """The topmost part of ``path`` (resolved) that does not exist yet, when making it
    makes a fresh scratch folder: below a temp directory, not a home, inside a temp
    directory itself or a folder only this user may write in. None otherwise (``path``
    exists, or the folder would be someone else's)."""
    from ..paths.match import is_temp, is_temp_dir, within

    if os.path.lexists(path):
        return None
    home = home.rstrip("/")
    top = path
    while not os.path.lexists(os.path.dirname(top)) and os.path.dirname(top) != top:
        top = os.path.dirname(top)
    parent = os.path.dirname(top)
    if is_temp(top) and not is_temp_dir(top) and not (home and within(top, home)) \
            and (is_temp_dir(parent) or _own(parent)):
        return top
    return None


def _own(folder: str) -> bool:
    """``folder`` belongs to this user and no one else may write in it."""
    try:
        info = os.stat(folder)
    except OSError:
        return False
    return info.st_uid == os.getuid() and not info.st_mode & 0o022

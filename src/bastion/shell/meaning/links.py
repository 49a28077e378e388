"""Links a command line makes, and what its later commands do through them.

``ln -s ~ /tmp/x/l && rm -rf /tmp/x/l/`` deletes the home: the link does not exist when
the call is checked, so the path is not resolved through it, and ``/tmp/x/l/`` looks
like scratch. Each link the line makes (``ln``, ``cp -s``, ``mount --bind``, ``bindfs``)
is remembered with its target, and every later command that reaches a path through one
is read again with that path replaced by where it leads: ``rm -rf ~/``, judged like any
typed command (the hard block for a home, a startup file's plant, a protected file).

What follows a link, as the kernel and the tools do:

* a path below the link (``/tmp/l/x``, ``/tmp/l/*``) or the link with a trailing slash
  (``/tmp/l/``, ``/tmp/l/.``) is the target's;
* the link itself is the target's for everything that opens it (a redirection, ``tee``,
  ``cp`` onto it, ``chmod``), but not for what acts on the name (``rm``, ``mv``,
  ``unlink``: they remove or move the link);
* a bind mount is its source through and through, the mount point included;
* ``find -L`` (or ``-follow``) walks into every link below its start points;
* a folder entered through a link (``cd /tmp/l``, ``cd -P``) is the target.

A tree of links (``cp -rs ~ /tmp/x``) holds links to files only: deleting in it removes
links, writing through it writes the files. Only links whose target is written out are
followed; anything else keeps today's verdict (a link asks as a write of its target).
"""

from __future__ import annotations

import os

from ...precompiled import regex
from ..syntax.options import parse_args
from .paths import find_roots, resolve

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .facts import Ctx, Facts

__all__ = ["MAKERS", "Link", "through_links"]

#: Commands that can make a link or a bind mount (``cp`` only with ``-s``).
MAKERS = frozenset({"ln", "link", "cp", "mount", "bindfs"})
#: Commands that act on a link's own name, not on what it leads to.
_ON_THE_NAME = frozenset({"rm", "unlink", "rmdir", "mv", "ln", "link", "readlink", "srm", "trash", "trash-put",
                          "gio"})
#: Where a mount is bind, as an option or inside ``-o``.
_BIND_FLAGS = frozenset({"--bind", "-B", "--rbind", "-R"})


class Link:
    """A link the line makes: its resolved place, where it leads, and how (a plain class:
    cheaper to define at import than a named tuple, and every shell decision loads this
    module)."""

    __slots__ = ("path", "target", "bind", "tree")

    def __init__(self, path: str, target: str, *, bind: bool = False, tree: bool = False) -> None:
        self.path = path
        self.target = target
        self.bind = bind  # a bind mount: the mount point itself is the target
        self.tree = tree  # a tree of links to files (``cp -rs``)


def through_links(facts: list[Facts], ctx: Ctx) -> list[tuple[Facts, str, str]]:
    """``(command, the same command through the links, which link)`` for every command
    after a link is made that reaches a path through it."""
    if not any(f.name in MAKERS for f in facts):
        return []
    links: list[Link] = []
    out: list[tuple[Facts, str, str]] = []
    for f in facts:
        if links and f.cmd.argv:
            text = _rewritten(f, links, ctx)
            if text is not None:
                out.append((f, text[0], text[1]))
        if f.name in MAKERS:
            links.extend(_made(f, ctx))
    return out


# --------------------------------------------------------------------------- making


def _made(f: Facts, ctx: Ctx) -> list[Link]:
    args = f.cmd.argv[1:]
    try:
        if f.name in ("ln", "link"):
            return _ln(args, f.base, ctx.home)
        if f.name == "cp":
            return _cp(args, f.base, ctx.home)
        if f.name == "mount":
            return _mount(args, f.base, ctx.home)
        if f.name == "bindfs":
            ops = parse_args(args, frozenset({"-o", "-u", "-g", "-p", "-m", "-M", "--map"})).operands
            return [Link(resolve(ops[-1], f.base, ctx.home), resolve(ops[-2], f.base, ctx.home), bind=True)] \
                if len(ops) >= 2 else []
    except (IndexError, ValueError):
        return []
    return []


def _places(ops: list[str], into: str | None, no_dir: bool, base: str, home: str) -> list[tuple[str, str]]:
    """``(target as written, resolved link path)`` for ``ln``/``cp``'s operands: the last
    one is the link, or a folder the links go into (named after their targets)."""
    if into is not None:
        folder = resolve(into, base, home)
        return [(op, f"{folder.rstrip('/')}/{os.path.basename(op.rstrip('/')) or op}") for op in ops]
    if len(ops) == 1:
        return [(ops[0], resolve(os.path.basename(ops[0].rstrip("/")) or ".", base, home))]
    last = ops[-1]
    folder = resolve(last, base, home)
    if len(ops) > 2 or last.endswith("/") or (not no_dir and os.path.isdir(folder)):
        return [(op, f"{folder.rstrip('/')}/{os.path.basename(op.rstrip('/')) or op}") for op in ops[:-1]]
    return [(ops[0], folder)]


def _ln(args: tuple[str, ...], base: str, home: str) -> list[Link]:
    parsed = parse_args(args, frozenset({"-t", "--target-directory", "-S", "--suffix"}),
                        aliases={"--symbolic": "-s", "--no-target-directory": "-T", "--relative": "-r"})
    symbolic, relative = parsed.has("-s"), parsed.has("-r")
    out = []
    for target, place in _places(list(parsed.operands), parsed.value("-t", "--target-directory"), parsed.has("-T"),
                                 base, home):
        # a symbolic link's relative target is read from the link's own folder
        where = os.path.dirname(place) if symbolic and not relative else base
        out.append(Link(place, resolve(target, where, home)))
    return out


def _cp(args: tuple[str, ...], base: str, home: str) -> list[Link]:
    parsed = parse_args(args, frozenset({"-t", "--target-directory", "-S", "--suffix", "--backup", "--sparse",
                                         "--reflink", "--preserve", "--no-preserve"}),
                        aliases={"--symbolic-link": "-s", "--recursive": "-r", "-R": "-r", "-a": "-r",
                                 "--archive": "-r", "--no-target-directory": "-T"})
    if not parsed.has("-s"):
        return []
    tree = parsed.has("-r")
    return [Link(place, resolve(target, base, home), tree=tree)
            for target, place in _places(list(parsed.operands), parsed.value("-t", "--target-directory"),
                                         parsed.has("-T"), base, home)]


def _mount(args: tuple[str, ...], base: str, home: str) -> list[Link]:
    parsed = parse_args(args, frozenset({"-o", "--options", "-t", "--types", "-L", "--label", "-U", "--uuid",
                                         "--source", "--target", "-O", "--test-opts"}))
    options = ",".join(v for v in (parsed.value("-o", "--options"),) if v)
    bind = any(a in _BIND_FLAGS for a in args) or any(o in ("bind", "rbind") for o in options.split(","))
    if not bind:
        return []
    ops = list(parsed.operands)
    source, target = parsed.value("--source"), parsed.value("--target")
    if source is None and ops:
        source = ops.pop(0)
    if target is None and ops:
        target = ops.pop(0)
    if source is None or target is None:
        return []
    return [Link(resolve(target, base, home), resolve(source, base, home), bind=True)]


# --------------------------------------------------------------------------- following


def _rewritten(f: Facts, links: list[Link], ctx: Ctx) -> tuple[str, str] | None:
    """The command's text with every path through a link replaced, and the link; None
    when no path goes through one."""
    used: list[Link] = []
    base = f.base
    inside = _follow(base, True, f.name, links, used)
    if inside is not None:
        base = inside  # a folder entered through a link: relative paths are the target's
    argv = list(f.cmd.argv)
    for i, word in enumerate(argv[1:], start=1):
        if not word or word.startswith("-") or "$" in word:
            continue
        mapped = _follow(resolve(word, base, ctx.home), word.endswith(("/", "/.")), f.name, links, used)
        if mapped is not None:
            argv[i] = mapped + ("/" if word.endswith("/") else "")
    if f.name == "find" and any(a in ("-L", "-follow") for a in argv[1:]):
        _find_follows(f, argv, base, links, used, ctx)
    redirects = []
    for r in f.cmd.redirects:
        if r.op in ("<<", "<<-", "<<<") or not r.target or r.target.isdigit() or r.target == "-":
            continue
        path = resolve(r.target, base, ctx.home)
        mapped = _follow(path, r.target.endswith("/"), "", links, used)
        redirects.append(f"{r.fd if r.fd is not None else ''}{r.op} {_word(mapped or path)}")
    if not used:
        return None
    text = " ".join([*(f"{k}={_word(v)}" for k, v in f.cmd.assignments), *map(_word, argv), *redirects])
    if inside is not None:
        text = f"cd {_word(inside)} && {text}"
    return text, f"{used[0].path} → {used[0].target}"


_PLAIN = regex(r"[\w@%+=:,./*?~-]+")


def _word(word: str) -> str:
    """``word`` for the shell, a glob left a glob (``rm -rf ~/*`` stays a glob)."""
    from .program import shell_word

    return word if _PLAIN.fullmatch(word) and not word.startswith("~") else shell_word(word)


def _follow(path: str, slash: bool, name: str, links: list[Link], used: list[Link]) -> str | None:
    """Where ``path`` leads through the latest link it reaches, or None."""
    for link in reversed(links):
        place = link.path.rstrip("/") or "/"
        if path == place:
            if link.bind or (not link.tree and (slash or name not in _ON_THE_NAME)):
                used.append(link)
                return link.target
        elif path.startswith(place + "/"):
            if link.tree and name in _ON_THE_NAME:
                continue
            used.append(link)
            return link.target.rstrip("/") + path[len(place):]
    return None


def _find_follows(f: Facts, argv: list[str], base: str, links: list[Link], used: list[Link], ctx: Ctx) -> None:
    """``find -L ROOT``: a link below a start point is walked into, so its target is a
    start point too (added after the last one)."""
    roots = find_roots(tuple(argv[1:]))
    if roots == ["."] and "." not in argv:
        return
    added = []
    for root in roots:
        start = resolve(root, base, ctx.home).rstrip("/") or "/"
        for link in links:
            if link.path.startswith(start + "/") and not link.tree:
                used.append(link)
                added.append(link.target)
    if added and roots:
        at = max(i for i, a in enumerate(argv) if a in roots)
        argv[at + 1:at + 1] = added

"""What every landing lister shares: the command in its script (:class:`Scene`), where a
source comes from when the command runs (:func:`origin`), a bounded folder walk, globs
expanded as the shell would, and what a command reads on standard input."""

from __future__ import annotations

import os
import posixpath

from . import limits

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence
    from typing import Any

#: One archive member: its name, and where it links to (a symlink's target, or the
#: member a hard link names) with whether it is a hard link.
Entry = tuple[str, "str | None", bool]


class Unlistable(Exception):
    """The source cannot be listed; ``str(exc)`` says why."""


class Landing:
    """One command's landing: its label and the targets (absolute paths) it writes.
    ``targets`` is lazy and may raise :class:`Unlistable` part-way."""

    __slots__ = ("label", "targets")

    def __init__(self, label: str, targets: Iterator[str]) -> None:
        self.label = label
        self.targets = targets


class Scene:
    """One simple command with what a lister needs: its argv, the folder it runs in,
    the commands before it in the same script, the script's source text."""

    __slots__ = ("cmd", "args", "base", "home", "earlier", "commands", "source", "name", "complex")

    def __init__(self, cmd: Any, name: str, base: str, home: str, earlier: Sequence[Any],
                 commands: Sequence[Any], source: str, complex_: bool = False) -> None:
        self.cmd = cmd
        self.complex = complex_
        self.name = name
        self.args: tuple[str, ...] = tuple(cmd.argv[1:])
        self.base = base
        self.home = home
        self.earlier = earlier
        self.commands = commands
        self.source = source

    def dynamic(self, word: str) -> bool:
        """A word whose value only the running shell knows. In a parse bastion fully
        understood, a ``$`` left in a word is literal (expansions make it too complex)."""
        return self.complex and ("$" in word or "`" in word)

    def placeholder(self, word: str) -> bool:
        """``{}`` in a ``find -exec`` or ``xargs -I`` command: a file found at run time,
        not listed here (as ``shell.meaning.paths`` does not name it either)."""
        return "{}" in word and any(c.origin in ("find -exec", "xargs") for c in (self.cmd, *self.commands))

    def at(self, folder: str) -> Scene:
        """The same command run from ``folder`` (``git -C DIR``): its paths resolve there."""
        return Scene(self.cmd, self.name, self.lexical(folder), self.home, self.earlier, self.commands, self.source,
                     self.complex)

    def lexical(self, path: str) -> str:
        from ...shell.meaning.paths import resolve

        return resolve(path, self.base, self.home)

    def real(self, path: str) -> str:
        from ..workspace import resolve_path

        return resolve_path(path, cwd=self.base, home=self.home)


def expand(scene: Scene, word: str) -> list[str]:
    """A source operand as the shell hands it over: a glob expands to what it matches
    here (bounded), or stays literal when it matches nothing."""
    if scene.dynamic(word):
        raise Unlistable(f"{word} is only known when the command runs")
    if not any(ch in word for ch in "*?["):
        return [word]
    import glob

    matches = sorted(glob.glob(scene.lexical(word), include_hidden=False))
    if len(matches) > limits.MAX_ENTRIES:
        raise Unlistable(f"{word} matches too many files")
    return matches or [word]


#: Commands whose every file write the path extractor sees (so a source they do not
#: write is not made by them); any other command before a missing source may make it.
WRITES_KNOWN = frozenset(
    "cd pushd popd echo printf pwd true false test [ [[ ls sleep export unset set which type command "
    "mkdir touch cp mv ln install rsync tar bsdtar unzip chmod chown chgrp grep egrep fgrep rg sed sort uniq "
    "head tail cat wc diff jq find realpath readlink dirname basename date rm rmdir tee stat file awk gawk "
    "cut tr paste xargs".split()
)


#: Known writers whose writes are plain files (never a folder with content).
FILE_WRITERS = frozenset("touch tee sponge truncate sort uniq sed awk gawk jq cut tr paste chmod chown chgrp".split())


def origin(scene: Scene, path: str) -> str:
    """Where ``path`` (lexical, absolute) comes from when the command runs, judged by
    the last command before it in the script that writes it:

    ``file`` — a redirection or a file-only writer (``> p``, ``tee p``): a plain file;
    ``empty`` — ``mkdir`` made it (nothing inside); ``made`` — another command puts it
    there (its content is unknown now); otherwise ``disk`` when it exists, ``maybe``
    when it does not but an earlier command bastion cannot see into may make it, and
    ``absent`` when nothing will be there (the command fails, landing nothing)."""
    from ...shell.catalog.catalog import canonical_name
    from ...shell.meaning.paths import extract_paths

    unknown = False
    for cmd in reversed(scene.earlier):
        name = canonical_name(cmd.name) if cmd.argv else ""
        for access in extract_paths(cmd, cwd=scene.base, home=scene.home) if cmd.argv or cmd.redirects else ():
            if access.op != "write":
                continue
            written = access.resolved.rstrip("/") or "/"
            if path == written:
                redirected = any(r.writes and scene.lexical(r.target) == written for r in cmd.redirects)
                return "file" if redirected or name in FILE_WRITERS else ("empty" if name == "mkdir" else "made")
            if path.startswith(written + "/") and name != "mkdir" and name not in FILE_WRITERS:
                return "made"  # something lands in a folder that holds it
        if name and name not in WRITES_KNOWN:
            unknown = True
    if os.path.lexists(path):
        return "disk"
    return "maybe" if unknown else "absent"


def walk(top: str, *, follow: bool = False) -> Iterator[str]:
    """Paths below folder ``top``, relative to it, bounded in count and depth."""
    stack: list[tuple[str, int]] = [("", 0)]
    count = 0
    while stack:
        rel, depth = stack.pop()
        try:
            with os.scandir(os.path.join(top, rel) if rel else top) as entries:
                found = list(entries)
        except OSError as exc:
            raise Unlistable(f"{os.path.join(top, rel)} cannot be read ({exc.strerror or type(exc).__name__})") from None
        for entry in found:
            count += 1
            if count > limits.MAX_ENTRIES:
                raise Unlistable(f"{top} holds more than {limits.MAX_ENTRIES} files")
            path = f"{rel}/{entry.name}" if rel else entry.name
            yield path
            try:
                is_dir = entry.is_dir(follow_symlinks=follow)
            except OSError:
                is_dir = False
            if is_dir:
                if depth + 1 > limits.MAX_DEPTH:
                    raise Unlistable(f"{top} is nested deeper than {limits.MAX_DEPTH} folders")
                stack.append((path, depth + 1))


def below(root: str, rel: str) -> str:
    """``rel`` (a name from a source) landed below ``root``, folded lexically."""
    joined = posixpath.normpath(posixpath.join(root, rel.lstrip("/"))) if rel else root
    return "/" + joined.lstrip("/")


def remote(word: str) -> bool:
    head = word.split("/", 1)[0]
    return ":" in head or word.startswith("rsync://")


#: Programs that print a file's content, or its decompressed content, when they feed a pipe.
PRINTERS = frozenset({"cat"})


DECOMPRESSORS = frozenset({"zcat", "gzcat", "bzcat", "xzcat", "zstdcat", "lz4cat", "gzip", "gunzip", "bzip2",
                            "bunzip2", "xz", "unxz", "zstd", "unzstd", "lz4", "pigz", "unpigz"})


def stdin_of(scene: Scene, cmd: Any = None, depth: int = 0) -> tuple[str, Any]:
    """What ``cmd`` (the scene's command) reads on standard input:
    ``("files", [..])`` — a ``<`` file or ``cat FILE |``; ``("compressed", [..])`` — the
    same through a decompressor (``gzip -dc F |``); ``("heredoc", None)``;
    ``("git-archive", cmd)``; ``("tar-create", cmd)``; ``("none", None)``; or
    ``("unknown", why)``."""
    from ...shell.catalog.catalog import canonical_name

    cmd = cmd if cmd is not None else scene.cmd
    for redirect in cmd.redirects:
        if redirect.fd not in (None, 0):
            continue
        if redirect.op == "<":
            return "files", [redirect.target]
        if redirect.op in ("<<", "<<-"):
            return "heredoc", None
        if redirect.op in ("<<<", "<&", "<>"):
            return "unknown", "it reads its input from a here-string or another descriptor"
    if cmd.pipe_index <= 0:
        return "none", None
    feeder = next((c for c in scene.commands if c.pipeline == cmd.pipeline and c.depth == cmd.depth
                   and c.pipe_index == cmd.pipe_index - 1), None)
    name = canonical_name(feeder.name) if feeder is not None and feeder.argv else ""
    if feeder is not None and name in PRINTERS | DECOMPRESSORS and depth < 4:
        files = [a for a in feeder.argv[1:] if not a.startswith("-")]
        compressed = name in DECOMPRESSORS
        if files:
            return ("compressed" if compressed else "files"), files
        kind, value = stdin_of(scene, feeder, depth + 1)
        if kind == "files" and compressed:
            kind = "compressed"
        return kind, value
    if name == "git" and feeder is not None and git_sub(feeder.argv[1:])[0] == "archive":
        return "git-archive", feeder
    if name in ("tar", "bsdtar", "gtar"):
        return "tar-create", feeder
    return "unknown", f"it reads what {name or 'another command'} pipes into it"


def git_sub(args: Sequence[str]) -> tuple[str, tuple[str, ...], str]:
    """``git``'s sub-command, its arguments and the ``-C`` folder (``""`` if none)."""
    i, where = 0, ""
    while i < len(args) and args[i].startswith("-"):
        arg = args[i]
        if arg == "-C" and i + 1 < len(args):
            where = posixpath.join(where, args[i + 1]) if where else args[i + 1]
            i += 2
            continue
        if arg in ("-c", "--git-dir", "--work-tree", "--namespace", "--config-env", "--exec-path") and i + 1 < len(args):
            i += 2
            continue
        i += 1
    return (args[i] if i < len(args) else ""), tuple(args[i + 1:]), where


def may_make(scene: Scene) -> bool:
    """A command before this one whose writes bastion cannot see (it may fetch or make a
    tree, an archive or a folder)."""
    from ...shell.catalog.catalog import canonical_name

    return any(c.argv and canonical_name(c.name) not in WRITES_KNOWN for c in scene.earlier)

"""What a copy or an extraction puts in place: the files only its source names.

``cp -r ../evil/. .`` writes ``.`` as far as its argv says, yet it plants
``.git/hooks/pre-commit``, ``.envrc`` and ``.bastion/settings.json`` — names only the
source folder knows. The same holds for ``rsync``, ``tar x``, ``unzip``, ``7z x``,
``git apply``, ``patch`` and ``git checkout <tree> -- .``. This module lists the source
at decision time and yields every path that would land; the file layers
(``files.layers``) judge those paths with the one protected-path judge
(``check.check_access``) and the runs-later table (``shell.targets``), so no list of
protected names lives here.

* **Listed** — a folder on disk (walked, bounded by :data:`MAX_ENTRIES` and
  :data:`MAX_DEPTH`), an archive's table of contents (``tarfile``/``zipfile``, read
  without extracting, bounded by :data:`MAX_ARCHIVE_BYTES` and :data:`MAX_ENTRIES`), a
  patch's file names (``files.patch.diff_names``), a git tree (``git diff --name-only``
  or ``git ls-tree``, :data:`GIT_TIMEOUT`). A protected name among the targets is an
  immune ask naming it (``FS007``).
* **Not listable** — a remote source, a value only known at run time, an unreadable or
  unknown format, a 7z archive, something too big, input piped from a program, a source
  an earlier command in the same script makes: an ordinary ask (``FS008``).
* **Absent** — a source that does not exist and that nothing earlier in the script can
  have made: the command fails and lands nothing (``tar xf missing.tar``), so it is
  decided as before.

Paths land *lexically* below the destination resolved through its symlinks: a name in an
archive or a folder is judged where it would be written, ``..`` folded (over-reporting an
archive that ``tar`` would refuse is the safe side). Links in archives count twice: the
link's own name and where it points.

The examples of each record (:data:`FORMS`) assume this scene, which
``tests/test_copy_plants.py`` builds for real: a git project (branches ``main``,
``evil`` adding ``.envrc`` and ``.vscode/tasks.json``, ``feature`` changing ``src/``)
next to ``../evil/`` (``.git/hooks/pre-commit``, ``.envrc``, ``.bastion/settings.json``,
``src/app.py``), ``../clean/`` (``src/``, ``docs/``, ``README.md``) and ``../withgit/``
(its own ``.git``, ``lib/``); in the project ``fixtures.tar`` (``.envrc``), ``fixtures.tgz``
and ``fixtures.zip`` (``.git/hooks/pre-commit``), ``nested.tar``
(``pkg/.bastion/settings.json``), ``dist.zip``, ``node-v20.tar.gz``, ``bundle.7z`` (a real
7z header), ``corrupt.tar``, ``evil.patch`` (adds ``.envrc``), ``x.diff`` (changes
``.bastion/settings.json``), ``fix.patch`` (changes ``src/app.py``), ``rename.patch``
(``notes.txt`` → ``.vscode/tasks.json``) and an empty ``build/``.
"""

from __future__ import annotations

import os
import posixpath
from typing import Any, Callable, Iterator, Sequence

__all__ = ["FORMS", "FINDINGS", "Form", "Landing", "Unlistable", "landings", "NAMES"]

#: Entries listed per source (folder walk, archive members, git paths, patch files).
MAX_ENTRIES = 10_000
#: Folder depth walked below a copied folder.
MAX_DEPTH = 48
#: A tar archive bigger than this is not read through (a compressed one is decompressed
#: to list it); nor are more than :data:`MAX_UNPACKED_BYTES` of content skipped over.
MAX_ARCHIVE_BYTES = 32 * 1024 * 1024
MAX_UNPACKED_BYTES = 512 * 1024 * 1024
#: A patch file bigger than this is not read.
MAX_PATCH_BYTES = 4 * 1024 * 1024
#: Seconds a ``git`` listing may take.
GIT_TIMEOUT = 3.0

#: The finding codes this module's verdicts carry (the files layers report them).
FINDINGS: dict[str, tuple[str, str]] = {
    "FS007": (
        "a copy or extraction puts a protected file in place",
        "the protected name comes from the source (a folder, an archive, a patch, a git tree), "
        "not from the command line, so only listing the source shows it; it is the same "
        "write as typing the path, so it needs a person in every mode",
    ),
    "FS008": (
        "a copy or extraction whose files cannot be listed",
        "what lands is unknown at decision time (remote, run-time value, unknown format, "
        "too big, made by an earlier command): a person decides, as for any unknown effect",
    ),
}


class Unlistable(Exception):
    """The source cannot be listed; ``str(exc)`` says why."""


class Landing:
    """One command's landing: its label and the targets (absolute paths) it writes.
    ``targets`` is lazy and may raise :class:`Unlistable` part-way."""

    __slots__ = ("label", "targets")

    def __init__(self, label: str, targets: Iterator[str]) -> None:
        self.label = label
        self.targets = targets


class _Scene:
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
        not listed here (as ``shell.paths`` does not name it either)."""
        return "{}" in word and any(c.origin in ("find -exec", "xargs") for c in (self.cmd, *self.commands))

    def lexical(self, path: str) -> str:
        from ..shell.paths import resolve

        return resolve(path, self.base, self.home)

    def real(self, path: str) -> str:
        from .workspace import resolve_path

        return resolve_path(path, cwd=self.base, home=self.home)


# --------------------------------------------------------------------------- sources


def _expand(scene: _Scene, word: str) -> list[str]:
    """A source operand as the shell hands it over: a glob expands to what it matches
    here (bounded), or stays literal when it matches nothing."""
    if scene.dynamic(word):
        raise Unlistable(f"{word} is only known when the command runs")
    if not any(ch in word for ch in "*?["):
        return [word]
    import glob

    matches = sorted(glob.glob(scene.lexical(word), include_hidden=False))
    if len(matches) > MAX_ENTRIES:
        raise Unlistable(f"{word} matches too many files")
    return matches or [word]


#: Commands whose every file write the path extractor sees (so a source they do not
#: write is not made by them); any other command before a missing source may make it.
_WRITES_KNOWN = frozenset(
    "cd pushd popd echo printf pwd true false test [ [[ ls sleep export unset set which type command "
    "mkdir touch cp mv ln install rsync tar bsdtar unzip chmod chown chgrp grep egrep fgrep rg sed sort uniq "
    "head tail cat wc diff jq find realpath readlink dirname basename date rm rmdir tee stat file awk gawk "
    "cut tr paste xargs".split()
)
#: Known writers whose writes are plain files (never a folder with content).
_FILE_WRITERS = frozenset("touch tee sponge truncate sort uniq sed awk gawk jq cut tr paste chmod chown chgrp".split())


def _origin(scene: _Scene, path: str) -> str:
    """Where ``path`` (lexical, absolute) comes from when the command runs, judged by
    the last command before it in the script that writes it:

    ``file`` — a redirection or a file-only writer (``> p``, ``tee p``): a plain file;
    ``empty`` — ``mkdir`` made it (nothing inside); ``made`` — another command puts it
    there (its content is unknown now); otherwise ``disk`` when it exists, ``maybe``
    when it does not but an earlier command bastion cannot see into may make it, and
    ``absent`` when nothing will be there (the command fails, landing nothing)."""
    from ..shell.catalog import canonical_name
    from ..shell.paths import extract_paths

    unknown = False
    for cmd in reversed(scene.earlier):
        name = canonical_name(cmd.name) if cmd.argv else ""
        for access in extract_paths(cmd, cwd=scene.base, home=scene.home) if cmd.argv or cmd.redirects else ():
            if access.op != "write":
                continue
            written = access.resolved.rstrip("/") or "/"
            if path == written:
                redirected = any(r.writes and scene.lexical(r.target) == written for r in cmd.redirects)
                return "file" if redirected or name in _FILE_WRITERS else ("empty" if name == "mkdir" else "made")
            if path.startswith(written + "/") and name != "mkdir" and name not in _FILE_WRITERS:
                return "made"  # something lands in a folder that holds it
        if name and name not in _WRITES_KNOWN:
            unknown = True
    if os.path.lexists(path):
        return "disk"
    return "maybe" if unknown else "absent"


def _walk(top: str, *, follow: bool = False) -> Iterator[str]:
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
            if count > MAX_ENTRIES:
                raise Unlistable(f"{top} holds more than {MAX_ENTRIES} files")
            path = f"{rel}/{entry.name}" if rel else entry.name
            yield path
            try:
                is_dir = entry.is_dir(follow_symlinks=follow)
            except OSError:
                is_dir = False
            if is_dir:
                if depth + 1 > MAX_DEPTH:
                    raise Unlistable(f"{top} is nested deeper than {MAX_DEPTH} folders")
                stack.append((path, depth + 1))


def _below(root: str, rel: str) -> str:
    """``rel`` (a name from a source) landed below ``root``, folded lexically."""
    joined = posixpath.normpath(posixpath.join(root, rel.lstrip("/"))) if rel else root
    return "/" + joined.lstrip("/")


# --------------------------------------------------------------------------- copies


_COPY_VALUES = {
    "cp": "-t --target-directory -S --suffix --sparse --reflink --no-preserve --preserve",
    "mv": "-t --target-directory -S --suffix",
    "ln": "-t --target-directory -S --suffix",
    "install": "-m --mode -o --owner -g --group -t --target-directory -S --suffix -C --strip-program",
    "scp": "-i -P -o -F -c -l -S -J -D",
}
#: Copiers that bring a folder's whole content (``ln`` and ``install`` never do).
_WALKERS = frozenset({"cp", "mv", "scp"})


def _remote(word: str) -> bool:
    head = word.split("/", 1)[0]
    return ":" in head or word.startswith("rsync://")


def _copy(scene: _Scene) -> Iterator[str]:
    """cp / mv / ln / install / scp: each source lands as the destination, or below it
    under its own name when the destination is a folder (``-t``, several sources, an
    existing folder); ``src/.`` brings the content."""
    from ..shell.options import parse_args

    name = scene.name
    parsed = parse_args(scene.args, frozenset(_COPY_VALUES[name].split()))
    ops = list(parsed.operands)
    target = parsed.value("-t", "--target-directory")
    if name == "install" and parsed.has("-d", "--directory"):
        return
    if target is not None:
        sources, dest, into = ops, target, True
    elif len(ops) >= 2:
        sources, dest = ops[:-1], ops[-1]
        into = len(sources) > 1
    elif len(ops) == 1 and name == "ln":
        sources, dest, into = ops, ".", True
    else:
        return
    if (_remote(dest) and name == "scp") or scene.placeholder(dest):
        return  # nothing lands here, or a found file renamed in place
    if scene.dynamic(dest):
        raise Unlistable(f"the destination {dest} is only known when the command runs")
    no_target_dir = parsed.has("-T", "--no-target-directory")
    dest_real = scene.real(dest)
    dest_dir = not no_target_dir and (
        into or os.path.isdir(dest_real) or _origin(scene, scene.lexical(dest)) in ("empty", "made"))
    walks = name in _WALKERS
    follow = parsed.has("-L", "--dereference")
    for word in sources:
        remote = name == "scp" and _remote(word)
        if scene.placeholder(word):
            continue  # a file find or xargs names at run time (see the module docstring)
        for source in ([word] if remote else _expand(scene, word)):
            written = source.split(":", 1)[1] if remote else source
            label = posixpath.basename(written.rstrip("/"))
            contents = written in (".", "..") or written.endswith(("/.", "/.."))
            if parsed.has("--parents"):
                roots = [_below(dest_real, posixpath.normpath(written))]
            elif dest_dir:
                roots = [dest_real if contents else _below(dest_real, label)]
                if not into and not os.path.isdir(dest_real):
                    roots.append(dest_real)  # a folder an earlier command makes: either way
            else:
                roots = [dest_real]
            yield from roots
            if remote:
                if parsed.has("-r"):
                    raise Unlistable(f"{word} is on another machine")
                continue
            yield from _source_below(scene, source, roots, walks=walks, follow=follow)


def _source_below(scene: _Scene, source: str, roots: list[str], *, walks: bool, follow: bool) -> Iterator[str]:
    """What a copied ``source`` brings below each of ``roots``: a folder's content."""
    if not walks:
        return
    origin = _origin(scene, scene.lexical(source))
    if origin in ("absent", "file", "empty"):
        return
    if origin != "disk":
        raise Unlistable(f"{source} is made by an earlier command")
    real = scene.real(source)
    if not os.path.isdir(real):
        return
    for rel in _walk(real, follow=follow):
        for root in roots:
            yield _below(root, rel)


_RSYNC_VALUES = frozenset(
    "-e --rsh --rsync-path --exclude --include --exclude-from --include-from --files-from --filter -f --port "
    "--password-file --log-file --chmod --chown --timeout --bwlimit --partial-dir --temp-dir -T --backup-dir "
    "--suffix --compare-dest --link-dest --copy-dest --usermap --groupmap --info --debug --out-format -M "
    "--remote-option --max-size --min-size --modify-window --iconv --sockopts --protocol".split()
)


def _rsync(scene: _Scene) -> Iterator[str]:
    """rsync: ``src/`` brings its content into the destination, ``src`` brings itself;
    simple ``--exclude`` names are honoured, anything subtler over-reports."""
    from ..shell.options import parse_args

    parsed = parse_args(scene.args, _RSYNC_VALUES)
    ops = list(parsed.operands)
    if len(ops) < 2 or parsed.has("-n", "--dry-run", "--list-only"):
        return
    sources, dest = ops[:-1], ops[-1]
    if _remote(dest):
        return
    if scene.dynamic(dest):
        raise Unlistable(f"the destination {dest} is only known when the command runs")
    dest_real = scene.real(dest)
    excluded = _rsync_excludes(parsed.values("--exclude"))
    many = len(sources) > 1 or dest.endswith("/") or os.path.isdir(dest_real)
    for word in sources:
        if _remote(word):
            raise Unlistable(f"{word} is on another machine")
        for source in _expand(scene, word):
            contents = source.endswith(("/", "/.")) or source == "."
            label = posixpath.basename(source.rstrip("/"))
            if excluded(label) and not contents:
                continue
            real = scene.real(source)
            is_dir = os.path.isdir(real)
            root = dest_real if (contents and is_dir) or not (is_dir or many) else _below(dest_real, label)
            yield root
            origin = _origin(scene, scene.lexical(source))
            if origin in ("absent", "file", "empty"):
                continue
            if origin != "disk":
                raise Unlistable(f"{source} is made by an earlier command")
            if is_dir:
                for rel in _walk(real, follow=parsed.has("-L", "--copy-links")):
                    if not any(excluded(part) for part in rel.split("/")):
                        yield _below(root, rel)


def _rsync_excludes(patterns: list[str]) -> Callable[[str], bool]:
    """``--exclude=NAME`` (no slash inside, an optional trailing one) as a test of one
    path component; other patterns are ignored, which only lists more."""
    import fnmatch

    simple = [p.rstrip("/") for p in patterns if p and "/" not in p.rstrip("/")]
    return lambda part: any(fnmatch.fnmatchcase(part, p) for p in simple)


# --------------------------------------------------------------------------- archives


#: One archive member: its name, and where it links to (a symlink's target, or the
#: member a hard link names) with whether it is a hard link.
Entry = tuple[str, "str | None", bool]


def _archive_entries(path: str) -> Iterator[Entry]:
    """Every member of a zip or tar archive, read from its table of contents (never
    extracted)."""
    import zipfile

    try:
        if zipfile.is_zipfile(path):
            yield from _zip_entries(path)
            return
        size = os.path.getsize(path)
    except OSError as exc:
        raise Unlistable(f"{path} cannot be read ({exc.strerror or type(exc).__name__})") from None
    if size > MAX_ARCHIVE_BYTES:
        raise Unlistable(f"{path} is larger than {MAX_ARCHIVE_BYTES // (1024 * 1024)} MB")
    yield from _tar_entries(path)


def _zip_entries(path: str) -> Iterator[Entry]:
    import stat
    import zipfile

    try:
        with zipfile.ZipFile(path) as archive:
            infos = archive.infolist()
            if len(infos) > MAX_ENTRIES:
                raise Unlistable(f"{path} holds more than {MAX_ENTRIES} files")
            for info in infos:
                link = None
                if stat.S_ISLNK(info.external_attr >> 16):  # unzip makes it a symlink; its target is the content
                    link = archive.read(info)[:4096].decode("utf-8", "replace")
                yield info.filename, link, False
    except (OSError, zipfile.BadZipFile, RuntimeError, ValueError, NotImplementedError, EOFError) as exc:
        raise Unlistable(f"{path} cannot be listed ({type(exc).__name__})") from None


def _tar_entries(path: str) -> Iterator[Entry]:
    import tarfile

    try:
        with tarfile.open(path, "r:*") as archive:
            count = 0
            while (member := archive.next()) is not None:
                count += 1
                if count > MAX_ENTRIES:
                    raise Unlistable(f"{path} holds more than {MAX_ENTRIES} files")
                if member.offset_data + member.size > MAX_UNPACKED_BYTES:
                    raise Unlistable(f"{path} unpacks to more than {MAX_UNPACKED_BYTES // (1024 * 1024)} MB")
                linked = member.issym() or member.islnk()
                yield member.name, (member.linkname if linked else None), member.islnk()
    except (OSError, EOFError, tarfile.TarError, ValueError) as exc:
        raise Unlistable(f"{path} is not an archive bastion can list ({type(exc).__name__})") from None


def _landed(name: str, root: str, *, strip: int, flat: bool, absolute: bool) -> str | None:
    """Where member ``name`` lands below ``root`` (None when ``--strip-components``
    leaves nothing of it); a leading ``/`` is dropped unless ``-P`` keeps it."""
    parts = [p for p in name.split("/") if p and p != "."][strip:]
    if flat:
        parts = parts[-1:]
    if not parts:
        return None
    if absolute and name.startswith("/"):
        return "/" + posixpath.normpath("/".join(parts))
    return _below(root, "/".join(parts))


def _members(entries: Iterator[Entry], root: str, *, keep: Callable[[str], bool], strip: int = 0,
             flat: bool = False, absolute: bool = False) -> Iterator[str]:
    """Where each archive member lands below ``root``, and where each link points: a
    write through a link lands there (``hooks -> ../.git/hooks``)."""
    for name, link, hard in entries:
        if not keep(name):
            continue
        landed = _landed(name, root, strip=strip, flat=flat, absolute=absolute)
        if landed is None:
            continue
        yield landed
        if not link:
            continue
        if hard:  # the member it names, where that one lands
            target = _landed(link, root, strip=strip, flat=flat, absolute=absolute)
            if target is not None:
                yield target
        elif link.startswith("/"):
            yield posixpath.normpath(link)
        else:
            yield _below(posixpath.dirname(landed), link)


def _selector(members: Sequence[str], excludes: Sequence[str]) -> Callable[[str], bool]:
    """Which members an extraction takes: those named (exactly, as a folder, or as a
    pattern) minus those excluded (a pattern on the name or on any part of it)."""
    import fnmatch

    def keep(name: str) -> bool:
        bare = name
        while bare.startswith("./"):
            bare = bare[2:]
        if members and not any(
            bare == m.rstrip("/") or bare.startswith(m.rstrip("/") + "/") or fnmatch.fnmatchcase(bare, m)
            for m in members
        ):
            return False
        return not any(fnmatch.fnmatchcase(bare, x) or any(fnmatch.fnmatchcase(p, x) for p in bare.split("/"))
                       for x in excludes)

    return keep


def _archive_file(scene: _Scene, word: str, *, alternatives: Sequence[str] = ()) -> str | None:
    """The archive a command reads, resolved; None when it is absent (nothing lands)."""
    if scene.dynamic(word):
        raise Unlistable(f"{word} is only known when the command runs")
    if _remote(word):
        raise Unlistable(f"{word} is on another machine")
    for candidate in (word, *alternatives):
        origin = _origin(scene, scene.lexical(candidate))
        if origin == "disk":
            return scene.real(candidate)
        if origin not in ("absent", "empty"):
            raise Unlistable(f"{candidate} is made by an earlier command")
    return None


_TAR_VALUES = (
    "-f -C -T -X -b -H -K -L -N -V -g -I --file --directory --files-from --exclude-from --exclude --blocking-factor "
    "--format --starting-file --tape-length --newer --label --listed-incremental --to-command --use-compress-program "
    "--checkpoint-action --rsh-command --transform --xform --owner --group --mode --mtime --strip-components "
    "--suffix --strip"
)
#: tar's long options, for its unambiguous abbreviations (``--ext`` is ``--extract``).
_TAR_LONG = tuple(
    "--extract --get --file --directory --strip-components --transform --xform --to-stdout --to-command "
    "--absolute-names --exclude --use-compress-program --list --create --append --update --zstd --lzip --lzop "
    "--wildcards --files-from --exclude-from".split()
)


def _tar_long(args: Sequence[str]) -> tuple[str, ...]:
    """GNU tar's abbreviated long options spelled out."""
    out = []
    for arg in args:
        name, eq, value = arg.partition("=")
        if name.startswith("--") and name not in _TAR_LONG and len(name) > 3:
            hits = [full for full in _TAR_LONG if full.startswith(name)]
            if len(hits) == 1:
                arg = hits[0] + eq + value
        out.append(arg)
    return tuple(out)


def _tar(scene: _Scene) -> Iterator[str]:
    """tar / bsdtar ``x``: the archive's members below ``-C`` (or here), after
    ``--strip-components``; only the members named, if any."""
    from ..shell.options import parse_args
    from ..shell.paths import tar_args

    parsed = parse_args(_tar_long(tar_args(scene.args)), frozenset(_TAR_VALUES.split()))
    names = parsed.names
    if not names & {"-x", "--extract", "--get"} or names & {"-O", "--to-stdout", "--to-command", "-t", "--list"}:
        return
    if names & {"--transform", "--xform"} or (scene.name == "bsdtar" and "-s" in names):
        raise Unlistable("it renames members as it extracts them")
    if names & {"-I", "--use-compress-program", "--zstd", "--lzip", "--lzop"}:
        raise Unlistable("it unpacks with an external program")
    directory = parsed.value("-C", "--directory") or "."
    if scene.dynamic(directory):
        raise Unlistable(f"the folder {directory} is only known when the command runs")
    try:
        strip = int(parsed.value("--strip-components", "--strip") or 0)
    except ValueError:
        raise Unlistable("its --strip-components is not a number") from None
    keep = _selector(parsed.operands, parsed.values("--exclude"))
    root = scene.real(directory)
    absolute = bool(names & {"-P", "--absolute-names"})
    archive = parsed.value("-f", "--file")
    if archive is None or archive == "-":
        yield from _members(_stdin_archive(scene), root, keep=keep, strip=strip, absolute=absolute)
        return
    path = _archive_file(scene, archive)
    if path is not None:
        yield from _members(_archive_entries(path), root, keep=keep, strip=strip, absolute=absolute)


def _stdin_archive(scene: _Scene) -> Iterator[Entry]:
    """An archive read from standard input: a ``<`` file, ``cat FILE |``, or ``git archive |``."""
    kind, value = _stdin(scene)
    if kind in ("files", "compressed"):  # tarfile reads gzip, bzip2 and xz itself
        for word in value:
            path = _archive_file(scene, word)
            if path is not None:
                yield from _archive_entries(path)
        return
    if kind == "git-archive":
        yield from _git_archive(scene, value)
        return
    if kind == "tar-create":
        yield from _tar_created(scene, value)
        return
    raise Unlistable(value or "it reads the archive from its input")


def _tar_created(scene: _Scene, feeder: Any) -> Iterator[Entry]:
    """The members ``tar c[f -] PATHS |`` writes to its output: each path and, for a
    folder, everything below it (``tar cf - dir | tar xf - -C dest`` copies a folder)."""
    from ..shell.options import parse_args
    from ..shell.paths import command_base, tar_args

    parsed = parse_args(_tar_long(tar_args(tuple(feeder.argv[1:]))), frozenset(_TAR_VALUES.split()))
    archive = parsed.value("-f", "--file")
    if not parsed.names & {"-c", "--create"} or (archive not in (None, "-")):
        raise Unlistable("it reads what tar pipes into it")
    if parsed.values("-T", "--files-from"):
        raise Unlistable("the files tar packs are listed in another file")
    base = command_base(feeder, scene.base, scene.home)
    folder = parsed.value("-C", "--directory")
    creator = _Scene(feeder, "tar", scene.lexical(posixpath.join(base, folder)) if folder else base, scene.home,
                     scene.earlier, scene.commands, scene.source, scene.complex)
    for word in parsed.operands:
        for source in _expand(creator, word):
            origin = _origin(creator, creator.lexical(source))
            if origin in ("absent", "empty"):
                continue
            if origin != "disk":
                raise Unlistable(f"{source} is made by an earlier command")
            yield source, None, False
            real = creator.real(source)
            if os.path.isdir(real):
                for rel in _walk(real):
                    yield f"{source.rstrip('/')}/{rel}", None, False


def _unzip(scene: _Scene) -> Iterator[str]:
    """unzip: the members (named ones only, if any; ``-x`` excluded) below ``-d``;
    ``-j`` drops their folders. Listing, testing and printing modes land nothing."""
    from ..shell.options import parse_args

    args = list(scene.args)
    excludes: list[str] = []
    if "-x" in args:
        at = args.index("-x")
        tail = args[at + 1:]
        stop = next((i for i, a in enumerate(tail) if a.startswith("-")), len(tail))
        excludes, args = tail[:stop], args[:at] + tail[stop:]
    parsed = parse_args(args, frozenset("-d -P -I -O".split()))
    if parsed.has("-l", "-v", "-t", "-z", "-Z", "-p", "-c", "-T"):
        return
    if not parsed.operands:
        return
    archive, members = parsed.operands[0], parsed.operands[1:]
    directory = parsed.value("-d") or "."
    if scene.dynamic(directory):
        raise Unlistable(f"the folder {directory} is only known when the command runs")
    path = _archive_file(scene, archive, alternatives=(archive + ".zip", archive + ".ZIP"))
    if path is None:
        return
    yield from _members(_zip_entries(path), scene.real(directory), keep=_selector(members, excludes),
                        flat=parsed.has("-j"))


def _7z(scene: _Scene) -> Iterator[str]:
    """7z / 7za / 7zr ``x`` and ``e``: a zip or tar inside is listed; a real 7z archive
    cannot be (no lister here), so it asks."""
    switches = [a for a in scene.args if a.startswith("-")]
    ops = [a for a in scene.args if not a.startswith("-")]
    if len(ops) < 2 or ops[0] not in ("x", "e") or "-so" in switches:
        return
    archive, members = ops[1], ops[2:]
    out = next((a[2:] for a in switches if a.startswith("-o") and len(a) > 2), ".")
    if scene.dynamic(out):
        raise Unlistable(f"the folder {out} is only known when the command runs")
    path = _archive_file(scene, archive)
    if path is None:
        return
    if not _is_zip_or_tar(path):
        raise Unlistable(f"{archive} is a 7z archive, which bastion cannot list")
    yield from _members(_archive_entries(path), scene.real(out), keep=_selector(members, ()), flat=ops[0] == "e")


def _is_zip_or_tar(path: str) -> bool:
    import tarfile
    import zipfile

    try:
        return zipfile.is_zipfile(path) or tarfile.is_tarfile(path)
    except (OSError, tarfile.TarError, EOFError, ValueError):
        return False


def _decompress(scene: _Scene) -> Iterator[str]:
    """gunzip and friends write each operand without its suffix (``.envrc.gz`` → ``.envrc``)."""
    from ..shell.options import parse_args

    parsed = parse_args(scene.args, frozenset("-S --suffix -T --threads -b -L".split()))
    decompressing = scene.name.startswith("un") or scene.name in ("gunzip", "bunzip2") or parsed.has(
        "-d", "--decompress", "--uncompress")
    if not decompressing or parsed.has("-c", "--stdout", "--to-stdout", "-l", "--list", "-t", "--test"):
        return
    suffix = parsed.value("-S", "--suffix")
    for word in parsed.operands:
        for source in _expand(scene, word):
            if _origin(scene, scene.lexical(source)) in ("absent", "empty"):
                continue
            for ending in (suffix,) if suffix else (".gz", ".z", ".bz2", ".xz", ".lzma", ".zst", ".Z", ".tgz"):
                if source.endswith(ending) and len(source) > len(ending):
                    kept = source[: -len(ending)] + (".tar" if ending == ".tgz" else "")
                    yield scene.real(kept)
                    break


# --------------------------------------------------------------------------- patches


#: Programs that print a file's content, or its decompressed content, when they feed a pipe.
_PRINTERS = frozenset({"cat"})
_DECOMPRESSORS = frozenset({"zcat", "gzcat", "bzcat", "xzcat", "zstdcat", "lz4cat", "gzip", "gunzip", "bzip2",
                            "bunzip2", "xz", "unxz", "zstd", "unzstd", "lz4", "pigz", "unpigz"})


def _stdin(scene: _Scene, cmd: Any = None, depth: int = 0) -> tuple[str, Any]:
    """What ``cmd`` (the scene's command) reads on standard input:
    ``("files", [..])`` — a ``<`` file or ``cat FILE |``; ``("compressed", [..])`` — the
    same through a decompressor (``gzip -dc F |``); ``("heredoc", None)``;
    ``("git-archive", cmd)``; ``("tar-create", cmd)``; ``("none", None)``; or
    ``("unknown", why)``."""
    from ..shell.catalog import canonical_name

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
    if feeder is not None and name in _PRINTERS | _DECOMPRESSORS and depth < 4:
        files = [a for a in feeder.argv[1:] if not a.startswith("-")]
        compressed = name in _DECOMPRESSORS
        if files:
            return ("compressed" if compressed else "files"), files
        kind, value = _stdin(scene, feeder, depth + 1)
        if kind == "files" and compressed:
            kind = "compressed"
        return kind, value
    if name == "git" and _git_sub(feeder.argv[1:])[0] == "archive":
        return "git-archive", feeder
    if name in ("tar", "bsdtar", "gtar"):
        return "tar-create", feeder
    return "unknown", f"it reads what {name or 'another command'} pipes into it"


def _patch_texts(scene: _Scene, files: Sequence[str]) -> list[str]:
    """Every text the command may apply: its patch files (or standard input), or —
    when one is written earlier in the script or comes as a here-document — every
    here-document body of the script (more files, never fewer)."""
    from ..shell.inline import heredoc_bodies
    from .patch import PATCH_COMMANDS  # noqa: F401 - the same reader as apply_patch

    texts: list[str] = []
    use_bodies = False
    if not files:
        kind, value = _stdin(scene)
        if kind == "files":
            files = value
        elif kind == "compressed":
            raise Unlistable("it reads a compressed patch")
        elif kind == "heredoc" or (kind == "none" and "<<" in scene.source):
            use_bodies = True
        elif kind == "none":
            raise Unlistable("it reads the patch from an input bastion cannot see")
        else:
            raise Unlistable(value)
    for word in files:
        if scene.dynamic(word):
            raise Unlistable(f"{word} is only known when the command runs")
        origin = _origin(scene, scene.lexical(word))
        if origin == "file":  # written just before (``cat > p.diff <<EOF``): its text is a body
            use_bodies = True
        elif origin in ("made", "maybe"):
            raise Unlistable(f"{word} is made by an earlier command")
        elif origin == "disk":
            path = scene.real(word)
            try:
                if os.path.getsize(path) > MAX_PATCH_BYTES:
                    raise Unlistable(f"{word} is larger than {MAX_PATCH_BYTES // (1024 * 1024)} MB")
                with open(path, "rb") as handle:
                    texts.append(handle.read(MAX_PATCH_BYTES).decode("utf-8", "replace"))
            except OSError as exc:
                raise Unlistable(f"{word} cannot be read ({exc.strerror or type(exc).__name__})") from None
    if use_bodies:
        bodies = heredoc_bodies(scene.source)
        if not bodies or scene.source.count("<<") - scene.source.count("<<<") > len(bodies):
            raise Unlistable("the patch comes from a here-document bastion cannot read")
        texts.extend(bodies)
    return texts


def _patch_targets(texts: Sequence[str], root: str, strip: int | None) -> Iterator[str]:
    """The files ``texts`` change, below ``root``, after ``-p strip`` (None: GNU patch's
    default, the bare file name)."""
    from .patch import diff_names

    found = False
    for text in texts:
        for name, stripped in diff_names(text):
            found = True
            parts = [p for p in name.split("/") if p]
            if strip is None:
                parts = parts[-1:]
            else:
                parts = parts[(strip if stripped else max(strip - 1, 0)):]
            if parts:
                yield _below(root, "/".join(parts))
    if not found and any(text.strip() for text in texts):
        raise Unlistable("the patch names no files bastion can read")


def _strip(value: str | None, default: int | None) -> int | None:
    if value is None:
        return default
    try:
        return int(value)
    except ValueError:
        raise Unlistable(f"-p {value} is not a number") from None


_PATCH_VALUES = frozenset(
    "-p -i -o -d -D -F -z -B -Y -V -r -g --strip --input --output --directory --ifdef --fuzz --suffix --prefix "
    "--basename-prefix --version-control --reject-file --get --quoting-style --read-only".split()
)


def _patch(scene: _Scene) -> Iterator[str]:
    """patch: the files the diff names (``-p N``, ``-d DIR``), or the one file given
    (``patch FILE [PATCH]``) or ``-o OUT``."""
    from ..shell.options import parse_args

    parsed = parse_args(scene.args, _PATCH_VALUES)
    if parsed.has("--dry-run", "-C", "--check"):
        return
    directory = parsed.value("-d", "--directory") or "."
    root = scene.real(directory)
    ops = list(parsed.operands)
    output = parsed.value("-o", "--output")
    patch_file = parsed.value("-i", "--input") or (ops[1] if len(ops) > 1 else None)
    texts = _patch_texts(scene, [patch_file] if patch_file else [])
    if output:
        if output != "-":
            yield _below(root, output) if not output.startswith("/") else output
        return
    if ops:
        yield _below(root, ops[0]) if not ops[0].startswith("/") else ops[0]
        return
    yield from _patch_targets(texts, root, _strip(parsed.value("-p", "--strip"), None))


# --------------------------------------------------------------------------- git


def _git_sub(args: Sequence[str]) -> tuple[str, tuple[str, ...], str]:
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


def _git_lines(cwd: str, *args: str) -> list[str]:
    """The NUL-separated output of a read-only ``git`` command in ``cwd``; its fsmonitor
    and optional locks off, no prompt. A failure raises ``LookupError``."""
    import subprocess

    env = dict(os.environ, GIT_OPTIONAL_LOCKS="0", GIT_TERMINAL_PROMPT="0")
    try:
        done = subprocess.run(["git", "-c", "core.fsmonitor=false", *args], cwd=cwd, env=env,
                              stdin=subprocess.DEVNULL, capture_output=True, timeout=GIT_TIMEOUT)
    except (OSError, subprocess.SubprocessError) as exc:
        raise Unlistable(f"git could not list the tree ({type(exc).__name__})") from None
    if done.returncode != 0:
        raise LookupError(done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or "git failed")
    return [line for line in done.stdout.decode("utf-8", "surrogateescape").split("\0") if line]


def _git_base(scene: _Scene, where: str) -> str:
    base = scene.real(where) if where else scene.real(".")
    if any(a.startswith(("--git-dir", "--work-tree")) for a in scene.args):
        raise Unlistable("it names another repository or work tree")
    return base


def _tree_changes(scene: _Scene, base: str, tree: str, paths: Sequence[str], *, prefix: str | None = None) -> Iterator[str]:
    """Files a checkout of ``tree`` (limited to ``paths``) writes: those that differ from
    HEAD (every file of the tree without a HEAD); with ``prefix``, every file of the
    tree below that folder (``git read-tree --prefix``)."""
    if scene.dynamic(tree) or any(scene.dynamic(p) for p in paths):
        raise Unlistable(f"{tree} is only known when the command runs")
    try:
        top = _git_lines(base, "rev-parse", "--show-toplevel")[0].strip()
        _git_lines(base, "rev-parse", "--verify", "--quiet", f"{tree}^{{tree}}")
    except (LookupError, IndexError):
        if _may_make(scene):
            raise Unlistable(f"{tree} may come from an earlier command") from None
        return  # git would fail: nothing lands
    spec = ["--", *paths] if paths else []
    try:
        has_head = prefix is None and bool(_git_lines(base, "rev-parse", "--verify", "--quiet", "HEAD^{commit}"))
    except LookupError:
        has_head = False
    try:
        if has_head:
            names = _git_lines(base, "diff", "--name-only", "--no-renames", "--no-ext-diff", "-z", "HEAD", tree, *spec)
        elif prefix is not None:
            names = _git_lines(base, "ls-tree", "-r", "--name-only", "--full-tree", "-z", tree)
        else:
            names = _git_lines(base, "ls-tree", "-r", "--name-only", "--full-name", "-z", tree, *spec)
    except LookupError as exc:
        raise Unlistable(f"git could not list {tree} ({exc})") from None
    if len(names) > MAX_ENTRIES:
        raise Unlistable(f"{tree} holds more than {MAX_ENTRIES} files")
    for name in names:
        yield _below(top, posixpath.join(prefix, name) if prefix else name)


def _may_make(scene: _Scene) -> bool:
    """A command before this one whose writes bastion cannot see (it may fetch or make a
    tree, an archive or a folder)."""
    from ..shell.catalog import canonical_name

    return any(c.argv and canonical_name(c.name) not in _WRITES_KNOWN for c in scene.earlier)


def _git_archive(scene: _Scene, feeder: Any) -> Iterator[Entry]:
    """The members ``git archive [--prefix=P] TREE [PATHS]`` writes to its output."""
    from ..shell.options import parse_args
    from ..shell.paths import command_base

    sub, rest, where = _git_sub(feeder.argv[1:])
    parsed = parse_args(rest, frozenset("--prefix --format -o --output --remote --exec --add-file --add-virtual-file".split()))
    if parsed.value("--remote") is not None:
        raise Unlistable("git archive reads another repository")
    if parsed.value("-o", "--output") is not None:
        return
    if not parsed.operands:
        return
    tree, paths = parsed.operands[0], parsed.operands[1:]
    if scene.dynamic(tree):
        raise Unlistable(f"{tree} is only known when the command runs")
    base_dir = command_base(feeder, scene.base, scene.home)
    base = scene.real(posixpath.join(base_dir, where)) if where else scene.real(base_dir)
    prefix = parsed.value("--prefix") or ""
    try:
        names = _git_lines(base, "ls-tree", "-r", "--name-only", "-z", tree, *(["--", *paths] if paths else []))
    except LookupError:
        return  # git archive would fail
    if len(names) > MAX_ENTRIES:
        raise Unlistable(f"{tree} holds more than {MAX_ENTRIES} files")
    for name in names:
        yield prefix + name, None, False


_GIT_APPLY_VALUES = frozenset("-p -C --directory --include --exclude --whitespace --build-fake-ancestor".split())


def _git(scene: _Scene) -> Iterator[str]:
    """git apply / checkout TREE -- PATHS / restore --source / read-tree -u."""
    from ..shell.options import parse_args

    sub, rest, where = _git_sub(scene.args)
    if sub == "apply":
        parsed = parse_args(rest, _GIT_APPLY_VALUES)
        if parsed.has("--stat", "--numstat", "--summary", "--check") and not parsed.has("--apply"):
            return
        files = [f for f in parsed.operands if f != "-"]
        texts = _patch_texts(scene, files)
        root = _git_base(scene, where)
        directory = parsed.value("--directory")
        if directory:
            root = _below(root, directory)
        yield from _patch_targets(texts, root, _strip(parsed.value("-p"), 1))
        return
    if sub == "checkout":
        parsed = parse_args(rest, frozenset("-b -B --orphan --conflict --pathspec-from-file".split()))
        if parsed.has("-b", "-B", "--orphan"):
            return
        ops = list(parsed.operands)
        if parsed.after_dashdash and "--" in rest:
            before = list(parse_args(rest[: rest.index("--")], frozenset("--conflict --pathspec-from-file".split())).operands)
            tree, paths = (before[0] if before else None), [a for a in rest[rest.index("--") + 1:]]
        elif len(ops) >= 2:
            tree, paths = ops[0], ops[1:]
        else:
            return  # a branch switch, or a path from the index: left to the other checks
        if tree is None:
            return
        yield from _tree_changes(scene, _git_base(scene, where), tree, paths)
        return
    if sub == "restore":
        parsed = parse_args(rest, frozenset("-s --source --conflict --pathspec-from-file".split()))
        tree = parsed.value("-s", "--source")
        if tree is None or (parsed.has("-S", "--staged") and not parsed.has("-W", "--worktree")):
            return
        yield from _tree_changes(scene, _git_base(scene, where), tree, list(parsed.operands))
        return
    if sub == "read-tree":
        parsed = parse_args(rest, frozenset("--prefix --index-output --exclude-per-directory".split()))
        if parsed.has("-u") and parsed.operands:
            yield from _tree_changes(scene, _git_base(scene, where), parsed.operands[-1], [],
                                     prefix=parsed.value("--prefix"))


# --------------------------------------------------------------------------- records


class Form:
    """One family of commands that put files in place from a source: how the source is
    listed, why it matters, and examples in the scene above — ``match`` plants a
    protected name (an immune ask, FS007), ``unlistable`` cannot be listed (an ask,
    FS008), ``not_match`` is decided as before (allowed)."""

    __slots__ = ("id", "commands", "listed_by", "why", "lister", "match", "unlistable", "not_match")

    def __init__(self, id: str, commands: frozenset[str], listed_by: str, why: str,
                 lister: Callable[[_Scene], Iterator[str]], *, match: tuple[str, ...],
                 unlistable: tuple[str, ...] = (), not_match: tuple[str, ...]) -> None:
        self.id = id
        self.commands = commands
        self.listed_by = listed_by
        self.why = why
        self.lister = lister
        self.match = match
        self.unlistable = unlistable
        self.not_match = not_match

    def __repr__(self) -> str:
        return f"Form({self.id!r})"


FORMS: tuple[Form, ...] = (
    Form(
        "copy", frozenset({"cp", "mv", "ln", "install", "scp"}),
        "the source folder, walked (bounded); a file by its name",
        "a copied folder brings every name inside it; a copied file keeps its name below a destination folder",
        _copy,
        match=("cp -r ../evil/. .", "cp -R ../evil/.bastion .", "cp ../evil/.envrc .", "mv ../evil/.bastion ."),
        not_match=("cp -r src/ build/", "cp -r ../clean/. .", "cp src/app.py src/app.py.bak"),
    ),
    Form(
        "sync", frozenset({"rsync"}),
        "the source folder, walked (bounded), simple --exclude names honoured",
        "rsync SRC/ DEST brings SRC's content, rsync SRC DEST brings SRC itself",
        _rsync,
        match=("rsync -a ../evil/ ./", "rsync -a ../evil/.git ."),
        unlistable=("rsync -a backup-host:evil/ ./",),
        not_match=("rsync -a ../clean/ vendor/", "rsync -a --exclude=.git ../withgit/ vendor/"),
    ),
    Form(
        "tar", frozenset({"tar", "bsdtar", "gtar"}),
        "the archive's table of contents (tarfile; zip for bsdtar), without extracting",
        "an archive names its members; tar x writes them below -C, after --strip-components",
        _tar,
        match=("tar xf fixtures.tar", "tar -xzf fixtures.tgz", "tar --extract --file=fixtures.tar",
               "tar -C build -xf fixtures.tar", "tar xf nested.tar --strip-components=1", "cat fixtures.tar | tar x"),
        unlistable=("tar xf corrupt.tar", "tar --transform 's,x,.envrc,' -xf fixtures.tar"),
        not_match=("tar xzf node-v20.tar.gz", "tar tf fixtures.tar", "tar xOf fixtures.tar .envrc", "tar xf missing.tar"),
    ),
    Form(
        "unzip", frozenset({"unzip"}),
        "the zip's central directory (zipfile)",
        "a zip names its members; unzip writes them below -d",
        _unzip,
        match=("unzip fixtures.zip", "unzip -o fixtures.zip", "unzip fixtures"),
        not_match=("unzip dist.zip -d out", "unzip -l fixtures.zip", "unzip missing.zip -d out"),
    ),
    Form(
        "7z", frozenset({"7z", "7za", "7zr"}),
        "a zip or tar inside is listed; a 7z archive cannot be",
        "7z x writes an archive's members below -o; no lister for the 7z format is at hand",
        _7z,
        match=("7z x fixtures.zip", "7za x -y fixtures.tar -obuild"),
        unlistable=("7z x bundle.7z",),
        not_match=("7z l bundle.7z",),
    ),
    Form(
        "decompress", frozenset({"gunzip", "gzip", "bunzip2", "bzip2", "xz", "unxz", "zstd", "unzstd", "lzma", "unlzma"}),
        "the operand's name without its suffix",
        "gunzip x/.envrc.gz writes x/.envrc",
        _decompress,
        match=("gunzip -k dotenv/.envrc.gz",),
        not_match=("gzip -d missing.log.gz",),
    ),
    Form(
        "patch", frozenset({"patch"}),
        "the diff's file names (files.patch.diff_names): -p N, -d DIR, or the one file named",
        "a patch names the files it creates and changes; -p strips the a/ b/ prefixes",
        _patch,
        match=("patch -p1 < x.diff", "patch -p1 -i x.diff"),
        not_match=("patch -p1 < fix.patch",),
    ),
    Form(
        "git", frozenset({"git apply", "git checkout", "git restore", "git read-tree"}),
        "a patch's file names; for a tree, git diff --name-only HEAD TREE (git ls-tree without HEAD)",
        "git apply writes the files a patch names; git checkout TREE -- PATHS and git restore --source write "
        "the tree's files; git read-tree -u writes a whole tree",
        _git,
        match=("git apply evil.patch", "git checkout evil -- .", "git restore --source=evil .",
               "git read-tree -u --prefix=vendor/ evil"),
        not_match=("git apply fix.patch", "git apply --stat evil.patch", "git checkout -b topic"),
    ),
)

#: Command name (``git apply``-style for git) → its record.
NAMES: dict[str, Form] = {name: form for form in FORMS for name in form.commands}


# --------------------------------------------------------------------------- entry point


def _label(cmd: Any) -> str:
    text = " ".join(cmd.argv)
    return text if len(text) <= 60 else text[:57] + "..."


def landings(commands: Sequence[Any], *, cwd: str, home: str, source: str = "", complex_: bool = False) -> list[Landing]:
    """Every copy or extraction among ``commands`` (a parse's simple commands, in
    order), each with the paths it would put in place. ``complex_``: the parse was too
    complex, so words may hold expansions only the shell knows."""
    from ..shell.catalog import canonical_name
    from ..shell.paths import command_base

    out: list[Landing] = []
    for index, cmd in enumerate(commands):
        if not cmd.argv:
            continue
        name = canonical_name(cmd.name)
        if name == "git":
            name = "git " + _git_sub(cmd.argv[1:])[0]
        form = NAMES.get(name)
        if form is None:
            continue
        scene = _Scene(cmd, name.split(" ", 1)[0], command_base(cmd, cwd, home), home, _before(commands, index),
                       commands, source, complex_)
        out.append(Landing(_label(cmd), form.lister(scene)))
    return out


def _before(commands: Sequence[Any], index: int) -> list[Any]:
    """The commands that finish before ``commands[index]`` starts: those before it,
    less the other stages of its own pipeline (they run alongside it)."""
    cmd = commands[index]
    if cmd.pipeline < 0:
        return list(commands[:index])
    return [c for c in commands[:index] if c.pipeline != cmd.pipeline]

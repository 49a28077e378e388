"""tar / bsdtar / unzip / 7z / gunzip: an archive's members, read from its table of
contents (``tarfile``, ``zipfile``) without extracting, and where each one lands."""

from __future__ import annotations

import os
import posixpath

from . import limits
from .scene import Entry, Scene, Unlistable, below, expand, origin, remote, stdin_of, walk

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence
    from typing import Any


def archive_entries(path: str) -> Iterator[Entry]:
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
    if size > limits.MAX_ARCHIVE_BYTES:
        raise Unlistable(f"{path} is larger than {limits.MAX_ARCHIVE_BYTES // (1024 * 1024)} MB")
    yield from _tar_entries(path)


def _zip_entries(path: str) -> Iterator[Entry]:
    import stat
    import zipfile

    try:
        with open(path, "rb") as handle:  # the entry count, before zipfile reads every entry
            end = zipfile._EndRecData(handle)  # type: ignore[attr-defined]  # noqa: SLF001
        if end and end[zipfile._ECD_ENTRIES_TOTAL] > limits.MAX_ENTRIES:  # type: ignore[attr-defined]  # noqa: SLF001
            raise Unlistable(f"{path} holds more than {limits.MAX_ENTRIES} files")
        with zipfile.ZipFile(path) as archive:
            infos = archive.infolist()
            if len(infos) > limits.MAX_ENTRIES:
                raise Unlistable(f"{path} holds more than {limits.MAX_ENTRIES} files")
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
                if count > limits.MAX_ENTRIES:
                    raise Unlistable(f"{path} holds more than {limits.MAX_ENTRIES} files")
                if member.offset_data + member.size > limits.MAX_UNPACKED_BYTES:
                    raise Unlistable(f"{path} unpacks to more than {limits.MAX_UNPACKED_BYTES // (1024 * 1024)} MB")
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
    return below(root, "/".join(parts))


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
            yield below(posixpath.dirname(landed), link)


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


def _archive_file(scene: Scene, word: str, *, alternatives: Sequence[str] = ()) -> str | None:
    """The archive a command reads, resolved; None when it is absent (nothing lands)."""
    if scene.dynamic(word):
        raise Unlistable(f"{word} is only known when the command runs")
    if remote(word):
        raise Unlistable(f"{word} is on another machine")
    for candidate in (word, *alternatives):
        came = origin(scene, scene.lexical(candidate))
        if came == "disk":
            return scene.real(candidate)
        if came not in ("absent", "empty"):
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
        hits = [full for full in _TAR_LONG if full.startswith(name)] if name.startswith("--") and len(name) > 3 else []
        out.append(hits[0] + eq + value if len(hits) == 1 and name not in _TAR_LONG else arg)
    return tuple(out)


def tar(scene: Scene) -> Iterator[str]:
    """tar / bsdtar ``x``: the archive's members below ``-C`` (or here), after
    ``--strip-components``; only the members named, if any."""
    from ...shell.meaning.paths import tar_args
    from ...shell.syntax.options import parse_args

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
        yield from _members(archive_entries(path), root, keep=keep, strip=strip, absolute=absolute)


def _stdin_archive(scene: Scene) -> Iterator[Entry]:
    """An archive read from standard input: a ``<`` file, ``cat FILE |``, or ``git archive |``."""
    kind, value = stdin_of(scene)
    if kind in ("files", "compressed"):  # tarfile reads gzip, bzip2 and xz itself
        for word in value:
            path = _archive_file(scene, word)
            if path is not None:
                yield from archive_entries(path)
        return
    if kind == "git-archive":
        from .git import git_archive

        yield from git_archive(scene, value)
        return
    if kind == "tar-create":
        yield from _tar_created(scene, value)
        return
    raise Unlistable(value or "it reads the archive from its input")


def _tar_created(scene: Scene, feeder: Any) -> Iterator[Entry]:
    """The members ``tar c[f -] PATHS |`` writes to its output: each path and, for a
    folder, everything below it (``tar cf - dir | tar xf - -C dest`` copies a folder)."""
    from ...shell.meaning.paths import command_base, tar_args
    from ...shell.syntax.options import parse_args

    parsed = parse_args(_tar_long(tar_args(tuple(feeder.argv[1:]))), frozenset(_TAR_VALUES.split()))
    archive = parsed.value("-f", "--file")
    if not parsed.names & {"-c", "--create"} or (archive not in (None, "-")):
        raise Unlistable("it reads what tar pipes into it")
    if parsed.values("-T", "--files-from"):
        raise Unlistable("the files tar packs are listed in another file")
    base = command_base(feeder, scene.base, scene.home)
    folder = parsed.value("-C", "--directory")
    creator = Scene(feeder, "tar", scene.lexical(posixpath.join(base, folder)) if folder else base, scene.home,
                     scene.earlier, scene.commands, scene.source, scene.complex)
    for word in parsed.operands:
        for source in expand(creator, word):
            came = origin(creator, creator.lexical(source))
            if came in ("absent", "empty"):
                continue
            if came != "disk":
                raise Unlistable(f"{source} is made by an earlier command")
            yield source, None, False
            real = creator.real(source)
            if os.path.isdir(real):
                for rel in walk(real):
                    yield f"{source.rstrip('/')}/{rel}", None, False


def unzip(scene: Scene) -> Iterator[str]:
    """unzip: the members (named ones only, if any; ``-x`` excluded) below ``-d``;
    ``-j`` drops their folders. Listing, testing and printing modes land nothing."""
    from ...shell.syntax.options import parse_args

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


def sevenzip(scene: Scene) -> Iterator[str]:
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
    yield from _members(archive_entries(path), scene.real(out), keep=_selector(members, ()), flat=ops[0] == "e")


def pax(scene: Scene) -> Iterator[str]:
    """pax ``-r`` reads an archive (``-f`` or standard input) into the current folder;
    ``-rw`` copies its operands into the last one, as ``cp -r`` would."""
    from ...shell.syntax.options import parse_args

    parsed = parse_args(scene.args, frozenset("-f -s -x -o -p -b -B -D -E -G -T -U".split()))
    if not parsed.has("-r"):
        return
    if parsed.has("-s"):
        raise Unlistable("it renames members as it extracts them")
    ops = list(parsed.operands)
    if parsed.has("-w"):
        if len(ops) < 2:
            return
        dest = scene.real(ops[-1])
        for word in ops[:-1]:
            for source in expand(scene, word):
                came = origin(scene, scene.lexical(source))
                if came in ("absent", "file", "empty"):
                    continue
                if came != "disk":
                    raise Unlistable(f"{source} is made by an earlier command")
                yield below(dest, source)
                if os.path.isdir(scene.real(source)):
                    for rel in walk(scene.real(source)):
                        yield below(dest, f"{source.rstrip('/')}/{rel}")
        return
    archive = parsed.value("-f")
    entries = _stdin_archive(scene) if archive in (None, "-") else None
    if entries is None:
        path = _archive_file(scene, archive or "-")
        if path is None:
            return
        entries = archive_entries(path)
    yield from _members(entries, scene.real("."), keep=_selector(ops, ()))


def ar(scene: Scene) -> Iterator[str]:
    """ar ``x``: an ``ar`` archive's members, by name, into the current folder (``ar``
    keeps no folders). Read from the archive's headers without extracting."""
    args = list(scene.args)
    if not args:
        return
    letters = args[0].lstrip("-")
    if "x" not in letters or len(args) < 2:
        return
    path = _archive_file(scene, args[1])
    if path is None:
        return
    members = args[2:]
    for name in _ar_names(path):
        if not members or name in members:
            yield below(scene.real("."), posixpath.basename(name) or name)


def _ar_names(path: str) -> Iterator[str]:
    """The member names of an ``ar`` archive (GNU long names and BSD ``#1/N`` names too)."""
    try:
        with open(path, "rb") as handle:
            if handle.read(8) != b"!<arch>\n":
                raise Unlistable(f"{path} is not an ar archive bastion can read")
            table = b""
            for _count in range(limits.MAX_ENTRIES + 1):
                header = handle.read(60)
                if len(header) < 60:
                    return
                raw, size = header[:16].rstrip(b" "), int(header[48:58].strip() or 0)
                body_start = handle.tell()
                if raw == b"//":
                    table = handle.read(min(size, limits.MAX_PATCH_BYTES))
                elif raw.startswith(b"#1/"):
                    yield handle.read(int(raw[3:])).rstrip(b"\0").decode("utf-8", "replace")
                elif raw.startswith(b"/") and raw[1:].isdigit() and table:
                    start = int(raw[1:])
                    yield table[start:table.find(b"/\n", start)].decode("utf-8", "replace")
                elif raw not in (b"/", b"/SYM64/", b"__.SYMDEF", b"__.SYMDEF SORTED"):
                    yield raw.rstrip(b"/").decode("utf-8", "replace")
                handle.seek(body_start + size + (size & 1))
            raise Unlistable(f"{path} holds more than {limits.MAX_ENTRIES} members")
    except (OSError, ValueError) as exc:
        raise Unlistable(f"{path} cannot be read ({type(exc).__name__})") from None


def _is_zip_or_tar(path: str) -> bool:
    import tarfile
    import zipfile

    try:
        return zipfile.is_zipfile(path) or tarfile.is_tarfile(path)
    except (OSError, tarfile.TarError, EOFError, ValueError):
        return False


def decompress(scene: Scene) -> Iterator[str]:
    """gunzip and friends write each operand without its suffix (``.envrc.gz`` → ``.envrc``)."""
    from ...shell.syntax.options import parse_args

    parsed = parse_args(scene.args, frozenset("-S --suffix -T --threads -b -L".split()))
    decompressing = scene.name.startswith("un") or scene.name in ("gunzip", "bunzip2") or parsed.has(
        "-d", "--decompress", "--uncompress")
    if not decompressing or parsed.has("-c", "--stdout", "--to-stdout", "-l", "--list", "-t", "--test"):
        return
    suffix = parsed.value("-S", "--suffix")
    for word in parsed.operands:
        for source in expand(scene, word):
            if origin(scene, scene.lexical(source)) in ("absent", "empty"):
                continue
            for ending in (suffix,) if suffix else (".gz", ".z", ".bz2", ".xz", ".lzma", ".zst", ".Z", ".tgz"):
                if source.endswith(ending) and len(source) > len(ending):
                    kept = source[: -len(ending)] + (".tar" if ending == ".tgz" else "")
                    yield scene.real(kept)
                    break

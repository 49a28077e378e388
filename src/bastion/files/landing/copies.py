"""cp / mv / ln / install / scp and rsync: what a copy puts in place."""

from __future__ import annotations

import os
import posixpath

from .scene import Scene, Unlistable, below, expand, origin, remote, walk

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

_COPY_VALUES = {
    "cp": "-t --target-directory -S --suffix --sparse --reflink --no-preserve --preserve",
    "mv": "-t --target-directory -S --suffix",
    "ln": "-t --target-directory -S --suffix",
    "install": "-m --mode -o --owner -g --group -t --target-directory -S --suffix -C --strip-program",
    "scp": "-i -P -o -F -c -l -S -J -D",
}


#: Copiers that bring a folder's whole content (``ln`` and ``install`` never do).
_WALKERS = frozenset({"cp", "mv", "scp"})


def copy(scene: Scene) -> Iterator[str]:
    """cp / mv / ln / install / scp: each source lands as the destination, or below it
    under its own name when the destination is a folder (``-t``, several sources, an
    existing folder); ``src/.`` brings the content."""
    from ...shell.syntax.options import parse_args

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
    if (remote(dest) and name == "scp") or scene.placeholder(dest):
        return  # nothing lands here, or a found file renamed in place
    if scene.dynamic(dest):
        raise Unlistable(f"the destination {dest} is only known when the command runs")
    no_target_dir = parsed.has("-T", "--no-target-directory")
    dest_real = scene.real(dest)
    dest_dir = not no_target_dir and (
        into or os.path.isdir(dest_real) or origin(scene, scene.lexical(dest)) in ("empty", "made"))
    walks = name in _WALKERS
    follow = parsed.has("-L", "--dereference")
    for word in sources:
        far = name == "scp" and remote(word)
        if scene.placeholder(word):
            continue  # a file find or xargs names at run time (see the module docstring)
        for source in ([word] if far else expand(scene, word)):
            written = source.split(":", 1)[1] if far else source
            label = posixpath.basename(written.rstrip("/"))
            contents = written in (".", "..") or written.endswith(("/.", "/.."))
            if parsed.has("--parents"):
                roots = [below(dest_real, posixpath.normpath(written))]
            elif dest_dir:
                roots = [dest_real if contents else below(dest_real, label)]
                if not into and not os.path.isdir(dest_real):
                    roots.append(dest_real)  # a folder an earlier command makes: either way
            else:
                roots = [dest_real]
            yield from roots
            if far:
                if parsed.has("-r"):
                    raise Unlistable(f"{word} is on another machine")
                continue
            yield from _source_below(scene, source, roots, walks=walks, follow=follow)


def _source_below(scene: Scene, source: str, roots: list[str], *, walks: bool, follow: bool) -> Iterator[str]:
    """What a copied ``source`` brings below each of ``roots``: a folder's content."""
    if not walks:
        return
    came = origin(scene, scene.lexical(source))
    if came in ("absent", "file", "empty"):
        return
    if came != "disk":
        raise Unlistable(f"{source} is made by an earlier command")
    real = scene.real(source)
    if not os.path.isdir(real):
        return
    for rel in walk(real, follow=follow):
        for root in roots:
            yield below(root, rel)


_RSYNC_VALUES = frozenset(
    "-e --rsh --rsync-path --exclude --include --exclude-from --include-from --files-from --filter -f --port "
    "--password-file --log-file --chmod --chown --timeout --bwlimit --partial-dir --temp-dir -T --backup-dir "
    "--suffix --compare-dest --link-dest --copy-dest --usermap --groupmap --info --debug --out-format -M "
    "--remote-option --max-size --min-size --modify-window --iconv --sockopts --protocol".split()
)


def rsync(scene: Scene) -> Iterator[str]:
    """rsync: ``src/`` brings its content into the destination, ``src`` brings itself;
    simple ``--exclude`` names are honoured, anything subtler over-reports."""
    from ...shell.syntax.options import parse_args

    parsed = parse_args(scene.args, _RSYNC_VALUES)
    ops = list(parsed.operands)
    if len(ops) < 2 or parsed.has("-n", "--dry-run", "--list-only"):
        return
    sources, dest = ops[:-1], ops[-1]
    if remote(dest):
        return
    if scene.dynamic(dest):
        raise Unlistable(f"the destination {dest} is only known when the command runs")
    dest_real = scene.real(dest)
    filters = parsed.has("--include", "--include-from", "--filter", "-f", "-F", "--files-from")
    excluded = _rsync_excludes([] if filters else parsed.values("--exclude"))  # an include may win over them
    many = len(sources) > 1 or dest.endswith("/") or os.path.isdir(dest_real)
    for word in sources:
        if remote(word):
            raise Unlistable(f"{word} is on another machine")
        for source in expand(scene, word):
            contents = source.endswith(("/", "/.")) or source == "."
            label = posixpath.basename(source.rstrip("/"))
            if excluded(label) and not contents:
                continue
            real = scene.real(source)
            is_dir = os.path.isdir(real)
            root = dest_real if (contents and is_dir) or not (is_dir or many) else below(dest_real, label)
            yield root
            came = origin(scene, scene.lexical(source))
            if came in ("absent", "file", "empty"):
                continue
            if came != "disk":
                raise Unlistable(f"{source} is made by an earlier command")
            if is_dir:
                for rel in walk(real, follow=parsed.has("-L", "--copy-links")):
                    if not any(excluded(part) for part in rel.split("/")):
                        yield below(root, rel)


def _rsync_excludes(patterns: list[str]) -> Callable[[str], bool]:
    """``--exclude=NAME`` (no slash inside, an optional trailing one) as a test of one
    path component; other patterns, and every exclude when an include or filter rule is
    given, are ignored, which only lists more."""
    import fnmatch

    simple = [p.rstrip("/") for p in patterns if p and "/" not in p.rstrip("/")]
    return lambda part: any(fnmatch.fnmatchcase(part, p) for p in simple)

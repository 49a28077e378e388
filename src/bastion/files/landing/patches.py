"""patch (and the patch texts ``git apply`` reads): the files a diff names, through the
one patch reader (``files.patch.diff_names``)."""

from __future__ import annotations

import os

from . import limits
from .scene import Scene, Unlistable, below, origin, stdin_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence


def patch_texts(scene: Scene, files: Sequence[str]) -> list[str]:
    """Every text the command may apply: its patch files (or standard input), or —
    when one is written earlier in the script or comes as a here-document — every
    here-document body of the script (more files, never fewer)."""
    from ...shell.meaning.inline import heredoc_bodies

    texts: list[str] = []
    use_bodies = False
    if not files:
        kind, value = stdin_of(scene)
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
        came = origin(scene, scene.lexical(word))
        if came == "file":  # written just before (``cat > p.diff <<EOF``): its text is a body
            use_bodies = True
        elif came in ("made", "maybe"):
            raise Unlistable(f"{word} is made by an earlier command")
        elif came == "disk":
            path = scene.real(word)
            try:
                if os.path.getsize(path) > limits.MAX_PATCH_BYTES:
                    raise Unlistable(f"{word} is larger than {limits.MAX_PATCH_BYTES // (1024 * 1024)} MB")
                with open(path, "rb") as handle:
                    texts.append(handle.read(limits.MAX_PATCH_BYTES).decode("utf-8", "replace"))
            except OSError as exc:
                raise Unlistable(f"{word} cannot be read ({exc.strerror or type(exc).__name__})") from None
    if use_bodies:
        bodies = heredoc_bodies(scene.source)
        if not bodies or scene.source.count("<<") - scene.source.count("<<<") > len(bodies):
            raise Unlistable("the patch comes from a here-document bastion cannot read")
        texts.extend(bodies)
    return texts


def patch_targets(texts: Sequence[str], root: str, strip: int | None) -> Iterator[str]:
    """The files ``texts`` change, below ``root``, after ``-p strip`` (None: GNU patch's
    default, the bare file name)."""
    from ..patch import diff_names

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
                yield below(root, "/".join(parts))
    if not found and any(text.strip() for text in texts):
        raise Unlistable("the patch names no files bastion can read")


def strip_count(value: str | None, default: int | None) -> int | None:
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


def patch(scene: Scene) -> Iterator[str]:
    """patch: the files the diff names (``-p N``, ``-d DIR``), or the one file given
    (``patch FILE [PATCH]``) or ``-o OUT``."""
    from ...shell.syntax.options import parse_args

    parsed = parse_args(scene.args, _PATCH_VALUES)
    if parsed.has("--dry-run", "-C", "--check"):
        return
    directory = parsed.value("-d", "--directory") or "."
    root = scene.real(directory)
    ops = list(parsed.operands)
    output = parsed.value("-o", "--output")
    patch_file = parsed.value("-i", "--input") or (ops[1] if len(ops) > 1 else None)
    texts = patch_texts(scene, [patch_file] if patch_file else [])
    if output:
        if output != "-":
            yield below(root, output) if not output.startswith("/") else output
        return
    if ops:
        yield below(root, ops[0]) if not ops[0].startswith("/") else ops[0]
        return
    yield from patch_targets(texts, root, strip_count(parsed.value("-p", "--strip"), None))

"""git apply / checkout / restore / read-tree / archive: what a patch or a tree puts in
place, listed with read-only git commands (a short timeout, fsmonitor off)."""

from __future__ import annotations

import os
import posixpath
from typing import Any, Iterator, Sequence

from . import limits
from .archives import Entry
from .patches import patch_targets, patch_texts, strip_count
from .scene import Scene, Unlistable, below, git_sub, may_make


def git_lines(cwd: str, *args: str) -> list[str]:
    """The NUL-separated output of a read-only ``git`` command in ``cwd``; its fsmonitor
    and optional locks off, no prompt. A failure raises ``LookupError``."""
    import subprocess

    env = dict(os.environ, GIT_OPTIONAL_LOCKS="0", GIT_TERMINAL_PROMPT="0")
    try:
        done = subprocess.run(["git", "-c", "core.fsmonitor=false", *args], cwd=cwd, env=env,
                              stdin=subprocess.DEVNULL, capture_output=True, timeout=limits.GIT_TIMEOUT, check=False)
    except (OSError, subprocess.SubprocessError) as exc:
        raise Unlistable(f"git could not list the tree ({type(exc).__name__})") from None
    if done.returncode != 0:
        raise LookupError(done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or "git failed")
    return [line for line in done.stdout.decode("utf-8", "surrogateescape").split("\0") if line]


def _git_base(scene: Scene, where: str) -> str:
    base = scene.real(where) if where else scene.real(".")
    if any(a.startswith(("--git-dir", "--work-tree")) for a in scene.args):
        raise Unlistable("it names another repository or work tree")
    return base


def _tree_changes(scene: Scene, base: str, tree: str, paths: Sequence[str], *, prefix: str | None = None) -> Iterator[str]:
    """Files a checkout of ``tree`` (limited to ``paths``) writes: those that differ from
    HEAD (every file of the tree without a HEAD); with ``prefix``, every file of the
    tree below that folder (``git read-tree --prefix``)."""
    if scene.dynamic(tree) or any(scene.dynamic(p) for p in paths):
        raise Unlistable(f"{tree} is only known when the command runs")
    try:
        top = git_lines(base, "rev-parse", "--show-toplevel")[0].strip()
        git_lines(base, "rev-parse", "--verify", "--quiet", f"{tree}^{{tree}}")
    except (LookupError, IndexError):
        if may_make(scene):
            raise Unlistable(f"{tree} may come from an earlier command") from None
        return  # git would fail: nothing lands
    spec = ["--", *paths] if paths else []
    try:
        has_head = prefix is None and bool(git_lines(base, "rev-parse", "--verify", "--quiet", "HEAD^{commit}"))
    except LookupError:
        has_head = False
    try:
        if has_head:
            names = git_lines(base, "diff", "--name-only", "--no-renames", "--no-ext-diff", "-z", "HEAD", tree, *spec)
        elif prefix is not None:
            names = git_lines(base, "ls-tree", "-r", "--name-only", "--full-tree", "-z", tree)
        else:
            names = git_lines(base, "ls-tree", "-r", "--name-only", "--full-name", "-z", tree, *spec)
    except LookupError as exc:
        raise Unlistable(f"git could not list {tree} ({exc})") from None
    if len(names) > limits.MAX_ENTRIES:
        raise Unlistable(f"{tree} holds more than {limits.MAX_ENTRIES} files")
    for name in names:
        yield below(top, posixpath.join(prefix, name) if prefix else name)


def git_archive(scene: Scene, feeder: Any) -> Iterator[Entry]:
    """The members ``git archive [--prefix=P] TREE [PATHS]`` writes to its output."""
    from ...shell.options import parse_args
    from ...shell.paths import command_base

    _sub, rest, where = git_sub(feeder.argv[1:])
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
        names = git_lines(base, "ls-tree", "-r", "--name-only", "-z", tree, *(["--", *paths] if paths else []))
    except LookupError:
        return  # git archive would fail
    if len(names) > limits.MAX_ENTRIES:
        raise Unlistable(f"{tree} holds more than {limits.MAX_ENTRIES} files")
    for name in names:
        yield prefix + name, None, False


_GIT_APPLY_VALUES = frozenset("-p -C --directory --include --exclude --whitespace --build-fake-ancestor".split())


def git(scene: Scene) -> Iterator[str]:
    """git apply / checkout TREE -- PATHS / restore --source / read-tree -u."""
    from ...shell.options import parse_args

    sub, rest, where = git_sub(scene.args)
    if sub == "apply":
        parsed = parse_args(rest, _GIT_APPLY_VALUES)
        if parsed.has("--stat", "--numstat", "--summary", "--check") and not parsed.has("--apply"):
            return
        files = [f for f in parsed.operands if f != "-"]
        texts = patch_texts(scene, files)
        root = _git_base(scene, where)
        directory = parsed.value("--directory")
        if directory:
            root = below(root, directory)
        yield from patch_targets(texts, root, strip_count(parsed.value("-p"), 1))
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

"""git: what a patch or another tree puts in the work tree, listed with read-only git
commands (a short timeout, fsmonitor off, no prompt).

A file whose content stays what HEAD already has is the repository's own; what lands is
what differs: ``git diff --name-only HEAD TREE`` for a checkout, switch, reset or new
worktree, ``HEAD...X`` (since the merge base) for a merge or rebase, a commit's own
changes for a cherry-pick or revert, a stash's changes and untracked files, a patch's
names for ``git apply`` and ``git am``. A revision that does not resolve lands nothing
(git fails) unless a command before it may have fetched or made it.
"""

from __future__ import annotations

import os
import posixpath

from . import limits
from .patches import patch_targets, patch_texts, strip_count
from .scene import Entry, Scene, Unlistable, below, git_sub, may_make

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence
    from typing import Any


def git_lines(cwd: str, *args: str) -> list[str]:
    """The NUL- or line-separated output of a read-only ``git`` command in ``cwd``; its
    fsmonitor and optional locks off, no prompt. A failure raises ``LookupError``."""
    import subprocess

    env = dict(os.environ, GIT_OPTIONAL_LOCKS="0", GIT_TERMINAL_PROMPT="0")
    try:
        done = subprocess.run(["git", "-c", "core.fsmonitor=false", *args], cwd=cwd, env=env, check=False,
                              stdin=subprocess.DEVNULL, capture_output=True, timeout=limits.GIT_TIMEOUT)
    except (OSError, subprocess.SubprocessError) as exc:
        raise Unlistable(f"git could not list the tree ({type(exc).__name__})") from None
    if done.returncode != 0:
        raise LookupError((done.stderr.decode("utf-8", "replace").strip().splitlines() or ["git failed"])[-1])
    text = done.stdout.decode("utf-8", "surrogateescape")
    return [line for line in text.replace("\n", "\0").split("\0") if line]


class _Repo:
    """The repository a git command runs in: its top folder, and which revisions resolve."""

    def __init__(self, scene: Scene) -> None:
        if any(a.startswith(("--git-dir", "--work-tree")) for a in scene.args):
            raise Unlistable("it names another repository or work tree")
        self.scene = scene
        self.base = scene.real(".")
        self._top: str | None = None
        #: Revisions git resolved here, or found not to, while this command is judged (a
        #: switch asks about its branch, then about HEAD and the branch together): each
        #: answer costs a git process, and the repository does not change meanwhile.
        self._known: dict[str, bool] = {}

    def resolves(self, *revisions: str) -> bool:
        """All ``revisions`` name commits or trees here (and the top folder is known)."""
        for rev in revisions:
            if self.scene.dynamic(rev):
                raise Unlistable(f"{rev} is only known when the command runs")
            if rev.startswith("-"):
                return False  # an option, not a revision: git refuses it
        known = self._known
        if any(known.get(rev) is False for rev in revisions):
            return False  # git would refuse the lot
        if self._top is not None and all(known.get(rev) for rev in revisions):
            return True
        try:
            lines = git_lines(self.base, "rev-parse", "--show-toplevel", *(f"{r}^{{tree}}" for r in revisions))
        except LookupError:
            if len(revisions) == 1:
                known[revisions[0]] = False
            return False
        self._top = lines[0] if lines else None
        if self._top is not None:
            known.update(dict.fromkeys(revisions, True))
        return self._top is not None

    @property
    def top(self) -> str:
        if self._top is None and not self.resolves():
            raise Unlistable("it does not run in a git repository bastion can read")
        return self._top or "/"

    def missing(self, revision: str) -> Iterator[str]:
        """What a revision that does not resolve lands: nothing (git fails), unless an
        earlier command in the script may fetch or make it."""
        if _makes_revisions(self.scene, revision):
            raise Unlistable(f"{revision} may come from an earlier command")
        return iter(())

    def names(self, *args: str, root: str | None = None, prefix: str = "") -> Iterator[str]:
        """The paths a listing command prints, below ``root`` (the top folder by default)."""
        try:
            found = git_lines(self.base, *args)
        except LookupError as exc:
            raise Unlistable(f"git could not list it ({exc})") from None
        if len(found) > limits.MAX_ENTRIES:
            raise Unlistable(f"it changes more than {limits.MAX_ENTRIES} files")
        top = root or self.top
        for name in found:
            yield below(top, posixpath.join(prefix, name) if prefix else name)

    def changes(self, old: str, new: str, paths: Sequence[str] = (), *, root: str | None = None) -> Iterator[str]:
        """Files that differ between ``old`` and ``new`` (``old`` may be ``HEAD...X``-style
        via ``new`` alone when ``old`` is empty); every file of ``new`` without a HEAD."""
        spec = ["--", *paths] if paths else []
        revisions = [r for r in (old, new) if r and "..." not in r]
        # Both at once first (the usual case: one git process), HEAD alone only when they fail.
        both = old == "HEAD" and self.resolves(*revisions)
        if old == "HEAD" and not both and not self.resolves("HEAD"):
            if not self.resolves(new):
                return self.missing(new)
            return self.names("ls-tree", "-r", "--name-only", "--full-name", "-z", new, *spec, root=root)
        if not both and not self.resolves(*revisions):
            return self.missing(new)
        revs = [old, new] if old else [new]
        return self.names("diff", "--name-only", "--no-renames", "--no-ext-diff", "-z", *revs, *spec, root=root)


#: git sub-commands that make or move revisions (a fetch, a commit, a new ref); any
#: other git command before a revision that does not resolve cannot have made it.
_REF_MAKERS = frozenset({"fetch", "pull", "clone", "am", "bundle", "stash", "commit", "merge", "rebase",
                         "cherry-pick", "revert", "tag", "update-ref", "notes", "replace", "submodule", "remote"})


def _makes_revisions(scene: Scene, revision: str) -> bool:
    """A command before this one may make ``revision``: a git command that fetches or
    commits (``git stash`` only a stash), or any command whose effects bastion cannot see."""
    from ...shell.catalog.catalog import canonical_name

    for cmd in scene.earlier:
        if not cmd.argv:
            continue
        if canonical_name(cmd.name) == "git":
            sub, rest, _where = git_sub(cmd.argv[1:])
            if sub in _REF_MAKERS and not set(rest) & _SEQUENCER and (sub != "stash" or revision.startswith("stash")):
                return True
            if sub == "branch" and set(rest) & {"-m", "-M", "--move", "-c", "-C", "--copy"}:
                return True  # a renamed or copied branch
        elif may_make(Scene(cmd, "", scene.base, scene.home, [cmd], scene.commands, scene.source)):
            return True
    return False


#: ``git branch`` options that do something else than create a branch.
_NOT_CREATING = frozenset("-d -D --delete -m -M --move -c -C --copy -l --list -a -r -v -vv --show-current --contains "
                          "--merged --no-merged --set-upstream-to -u --unset-upstream --edit-description".split())


def _created(scene: Scene, name: str) -> str | None:
    """The start point of branch ``name`` when a command before this one creates it
    (``git branch NAME [START]``, ``checkout -b``, ``switch -c``, ``worktree add -b``)."""
    from ...shell.catalog.catalog import canonical_name

    start = None
    for cmd in scene.earlier:
        if not cmd.argv or canonical_name(cmd.name) != "git":
            continue
        sub, rest, _where = git_sub(cmd.argv[1:])
        if sub == "branch" and not set(rest) & _NOT_CREATING:
            ops = list(_parse(rest, "-t --track").operands)
            made, points = ops[:1], ops[1:]
        elif sub in ("checkout", "switch"):
            made = _flagged(rest, "-b", "-B", "-c", "-C", "--create", "--force-create")
            points = list(_parse(rest, "-b -B -c -C --create --force-create --orphan --conflict").operands)
        elif sub == "worktree" and rest[:1] == ("add",):
            made = _flagged(rest, "-b", "-B")
            points = list(_parse(rest[1:], "-b -B --reason").operands)[1:]  # after the path
        else:
            continue
        if name in made:
            start = points[0] if points else "HEAD"
    return start


def _flagged(rest: Sequence[str], *flags: str) -> list[str]:
    """The values of ``flags`` in ``rest`` (``-b NAME``, ``--create=NAME``)."""
    found = []
    for i, arg in enumerate(rest):
        if arg in flags and i + 1 < len(rest):
            found.append(rest[i + 1])
        elif "=" in arg and arg.split("=", 1)[0] in flags:
            found.append(arg.split("=", 1)[1])
    return found


def _branch(repo: _Repo, name: str, *, guess: bool = True) -> str | None:
    """The revision ``name`` stands for in a checkout or switch: itself, ``-`` as the
    previous branch, a branch made just before (its start point), or the one remote
    branch of that name git would guess."""
    rev = "@{-1}" if name == "-" else name
    if repo.resolves(rev):
        return rev
    start = _created(repo.scene, name)
    if start is not None:
        return start if repo.resolves(start) else None
    if guess and "/" not in name and not name.startswith("-"):
        try:
            found = git_lines(repo.base, "for-each-ref", "--format=%(refname)", f"refs/remotes/*/{name}")
        except LookupError:
            found = []
        if len(found) == 1:
            return found[0]
    return None


def git_archive(scene: Scene, feeder: Any) -> Iterator[Entry]:
    """The members ``git archive [--prefix=P] TREE [PATHS]`` writes to its output."""
    from ...shell.meaning.paths import command_base
    from ...shell.syntax.options import parse_args

    _sub, rest, where = git_sub(feeder.argv[1:])
    parsed = parse_args(rest, frozenset("--prefix --format -o --output --remote --exec --add-file --add-virtual-file".split()))
    if parsed.value("--remote") is not None:
        raise Unlistable("git archive reads another repository")
    if parsed.value("-o", "--output") is not None or not parsed.operands:
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


#: Sub-commands that only continue, stop or undo an operation in progress.
_SEQUENCER = frozenset({"--continue", "--abort", "--quit", "--skip", "--edit-todo", "--show-current-patch"})


def _parse(rest: Sequence[str], values: str) -> Any:
    from ...shell.syntax.options import parse_args

    return parse_args(rest, frozenset(values.split()))


def _apply(repo: _Repo, rest: Sequence[str]) -> Iterator[str]:
    parsed = _parse(rest, "-p -C --directory --include --exclude --whitespace --build-fake-ancestor")
    if parsed.has("--stat", "--numstat", "--summary", "--check") and not parsed.has("--apply"):
        return
    texts = patch_texts(repo.scene, [f for f in parsed.operands if f != "-"])
    root = repo.base
    if parsed.value("--directory"):
        root = below(root, parsed.value("--directory"))
    yield from patch_targets(texts, root, strip_count(parsed.value("-p"), 1))


def _am(repo: _Repo, rest: Sequence[str]) -> Iterator[str]:
    parsed = _parse(rest, "-p -C --directory --include --exclude --whitespace --patch-format --resolvemsg -S --gpg-sign")
    if parsed.names & _SEQUENCER:
        return
    texts = patch_texts(repo.scene, list(parsed.operands))
    yield from patch_targets(texts, repo.top, strip_count(parsed.value("-p"), 1))


def _checkout(repo: _Repo, rest: Sequence[str]) -> Iterator[str]:
    """``checkout TREE [--] PATHS`` writes the tree's files; ``checkout BRANCH`` (and
    ``-b NEW START``, ``--detach X``) switches to it."""
    if "--" in rest:
        before = list(_parse(rest[: rest.index("--")], "-b -B --orphan --conflict --pathspec-from-file").operands)
        paths = list(rest[rest.index("--") + 1:])
        return repo.changes("HEAD", before[0], paths) if before else iter(())
    parsed = _parse(rest, "-b -B --orphan --conflict --pathspec-from-file")
    ops = list(parsed.operands)
    if len(ops) >= 2 and not parsed.has("-b", "-B", "--orphan"):
        return repo.changes("HEAD", ops[0], ops[1:])
    return _switch_to(repo, ops[0] if ops else None, created=parsed.has("-b", "-B", "--orphan"))


def _switch(repo: _Repo, rest: Sequence[str]) -> Iterator[str]:
    parsed = _parse(rest, "-c -C --create --force-create --orphan --conflict")
    if parsed.has("--orphan"):
        return iter(())  # an empty tree
    ops = list(parsed.operands)
    return _switch_to(repo, ops[0] if ops else None, created=parsed.has("-c", "-C", "--create", "--force-create"),
                      guess=not parsed.has("--no-guess"))


def _switch_to(repo: _Repo, target: str | None, *, created: bool, guess: bool = True) -> Iterator[str]:
    """A switch to ``target`` (a new branch's start point when ``created``)."""
    if target is None:
        return iter(())
    rev = _branch(repo, target, guess=guess and not created)
    if rev is None:  # not a revision (``git checkout FILE`` restores from the index), or git fails
        return repo.missing(target)
    return repo.changes("HEAD", rev)


def _restore(repo: _Repo, rest: Sequence[str]) -> Iterator[str]:
    parsed = _parse(rest, "-s --source --conflict --pathspec-from-file")
    tree = parsed.value("-s", "--source")
    if tree is None or (parsed.has("-S", "--staged") and not parsed.has("-W", "--worktree")):
        return iter(())  # from the index, or the index only
    return repo.changes("HEAD", tree, list(parsed.operands))


def _reset(repo: _Repo, rest: Sequence[str]) -> Iterator[str]:
    parsed = _parse(rest, "--pathspec-from-file")
    if not parsed.has("--hard", "--merge", "--keep") or not parsed.operands:
        return iter(())  # the index only, or back to HEAD's own files
    return repo.changes("HEAD", parsed.operands[0])


def _merge(repo: _Repo, rest: Sequence[str], sub: str) -> Iterator[str]:
    """merge X… / rebase [--onto N] [U [B]]: what X (or the new base) changed since the
    merge base."""
    values = ("-m -F -s -X --strategy --strategy-option --file --into-name --cleanup --onto -x --exec --empty "
              "-C --whitespace --rebase-merges")
    parsed = _parse(rest, values)
    if parsed.names & _SEQUENCER:
        return
    ops = list(parsed.operands)
    if sub == "rebase":
        targets = [parsed.value("--onto") or (ops[0] if ops else "@{upstream}")] + ops[1:2]
    else:
        targets = ops or ["@{upstream}"]
    for target in targets:
        if not repo.resolves(target):
            yield from repo.missing(target)
            continue
        yield from repo.changes("", f"HEAD...{target}")


def _pick(repo: _Repo, rest: Sequence[str]) -> Iterator[str]:
    """cherry-pick / revert: each commit's own changes (a range: the changes across it)."""
    parsed = _parse(rest, "-m --mainline --strategy -X --strategy-option --cleanup -S --gpg-sign")
    if parsed.names & _SEQUENCER:
        return
    for rev in parsed.operands:
        if ".." in rev:
            old, _, new = rev.partition("...") if "..." in rev else rev.partition("..")
            yield from repo.changes(old or "HEAD", new or "HEAD")
        elif not repo.resolves(rev):
            yield from repo.missing(rev)
        else:
            yield from repo.names("diff-tree", "--no-commit-id", "--name-only", "-r", "--root", "-z", rev)


def _stash(repo: _Repo, rest: Sequence[str]) -> Iterator[str]:
    """stash pop / apply / branch: the stash's changes and its untracked files."""
    if not rest or rest[0] not in ("pop", "apply", "branch"):
        return
    ops = list(_parse(rest[1:], "").operands)
    if rest[0] == "branch":
        ops = ops[1:]
    stash = ops[0] if ops else "stash@{0}"
    stash = f"stash@{{{stash}}}" if stash.isdigit() else stash
    if _stashed_before(repo.scene):
        raise Unlistable("a stash made just before it may or may not be the one it takes")
    if not repo.resolves(stash):
        yield from repo.missing(stash)
        return
    yield from repo.changes(f"{stash}^1", stash)
    if repo.resolves(f"{stash}^3"):
        yield from repo.names("ls-tree", "-r", "--name-only", "--full-tree", "-z", f"{stash}^3")


def _stashed_before(scene: Scene) -> bool:
    """``git stash`` (push or save) runs before this command in the script."""
    from ...shell.catalog.catalog import canonical_name

    for cmd in scene.earlier:
        if cmd.argv and canonical_name(cmd.name) == "git":
            sub, rest, _where = git_sub(cmd.argv[1:])
            if sub == "stash" and (not rest or rest[0] in ("push", "save") or rest[0].startswith("-")):
                return True
    return False


def _worktree(repo: _Repo, rest: Sequence[str]) -> Iterator[str]:
    """worktree add PATH [COMMIT]: the commit's files that differ from HEAD, below PATH."""
    if not rest or rest[0] != "add":
        return iter(())
    parsed = _parse(rest[1:], "-b -B --reason")
    if parsed.has("--no-checkout") or not parsed.operands:
        return iter(())
    path, commits = parsed.operands[0], parsed.operands[1:]
    if not commits:
        return iter(())  # a new branch at HEAD: HEAD's own files
    return repo.changes("HEAD", commits[0], root=repo.scene.real(path))


def _read_tree(repo: _Repo, rest: Sequence[str]) -> Iterator[str]:
    parsed = _parse(rest, "--prefix --index-output --exclude-per-directory")
    if not parsed.has("-u") or not parsed.operands:
        return iter(())
    tree, prefix = parsed.operands[-1], parsed.value("--prefix")
    if prefix is None:
        return repo.changes("HEAD", tree)
    if not repo.resolves(tree):
        return repo.missing(tree)
    return repo.names("ls-tree", "-r", "--name-only", "--full-tree", "-z", tree, prefix=prefix)


#: Sub-command → what it writes to the work tree.
_SUBS = {
    "apply": _apply, "am": _am, "checkout": _checkout, "switch": _switch, "restore": _restore, "reset": _reset,
    "merge": lambda repo, rest: _merge(repo, rest, "merge"), "rebase": lambda repo, rest: _merge(repo, rest, "rebase"),
    "cherry-pick": _pick, "revert": _pick, "stash": _stash, "worktree": _worktree, "read-tree": _read_tree,
}
#: The sub-commands this module lists (``landing.FORMS`` names them).
SUBCOMMANDS = frozenset(_SUBS)


def git(scene: Scene) -> Iterator[str]:
    """What ``git SUB …`` puts in the work tree (``-C DIR`` moves where it runs)."""
    from .scene import origin

    sub, rest, where = git_sub(scene.args)
    handler = _SUBS.get(sub)
    if handler is None:
        return
    if where:
        scene = scene.at(where)
    if not os.path.isdir(scene.real(".")):  # git cannot run there
        if origin(scene, scene.base) in ("absent", "empty", "file"):
            return
        raise Unlistable(f"{scene.base} is made by an earlier command")
    yield from handler(_Repo(scene), rest)

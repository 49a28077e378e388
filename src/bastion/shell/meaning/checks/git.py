"""Checks for git: executing configuration (``-c core.pager=…``,
``--config-env``), a repository that is not the workspace's (its configuration and hooks
run), and per sub-command the forms that discard work or history
(``push --force``, ``reset --hard``, ``clean -f``, ``branch -D``, ``checkout -- .``,
``stash drop``, ``reflog expire``) versus the read-only and routine ones.
"""

from __future__ import annotations

import os
import posixpath

from ...catalog import catalog as C
from ...syntax.lazyre import LazyPattern
from ...syntax.options import parse_args
from ..facts import Ctx, Facts, H, apply_value, dynamic, host_of, short
from ..paths import resolve

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable


def check_git(f: Facts, args: tuple[str, ...], ctx: Ctx) -> None:
    i, n = 0, len(args)
    where: list[str] = []  # ``-C DIR`` (each relative to the one before)
    repos: list[str] = [v for k, v in f.cmd.assignments if k in _REPO_VARIABLES]
    while i < n and args[i].startswith("-"):
        arg = args[i]
        key = ""
        option, eq, attached = arg.partition("=")
        if option in ("--git-dir", "--work-tree"):
            named = attached if eq else (args[i + 1] if i + 1 < n else "")
            repos.append(posixpath.join(*where, named) if where and named else named)
        elif arg == "-C" and i + 1 < n:
            where.append(args[i + 1])
        if arg == "-c" and i + 1 < n:
            key = args[i + 1].split("=", 1)[0]
            i += 2
        elif arg.startswith("-c") and len(arg) > 2:
            key = arg[2:].split("=", 1)[0]
            i += 1
        elif arg == "--config-env" and i + 1 < n:
            key = args[i + 1].split("=", 1)[0]
            i += 2
        elif arg.startswith("--config-env="):
            key = arg.split("=", 2)[1]
            i += 1
        elif arg in C.GIT_VALUE_OPTS and i + 1 < n:
            if arg == "--exec-path":
                f.hit("CAT022", f"{f.label} (--exec-path)")
            i += 2
            continue
        else:
            i += 1
            continue
        if key and _git_exec_key(key):
            f.hit("CAT022", f"{f.label} ({key})")
    sub = args[i] if i < n else ""
    rest = args[i + 1 :]
    value = C.GIT.get(sub)
    if not sub:
        return
    if sub not in _NO_REPOSITORY and not (sub == "config" and {"--global", "--system"} & set(rest)):
        _foreign_repository(f, repos or [posixpath.join(*where) if where else "."], ctx)
    if value is None:
        f.known = False
        f.label = f"git {sub}"
        f.at_least(H)
        return
    f.label = short(f.cmd)
    refine = _GIT_SUBS.get(sub)
    if refine is not None:
        value = refine(f, rest, ctx) or value
        if value == "done":
            return
    apply_value(f, value, f.label)
    if sub in ("clone", "fetch", "pull", "ls-remote", "submodule"):
        for word in rest:
            host = host_of(word)
            if host:
                f.hosts.append(host)
        f.hit("CAT031", f.label)
        if any(a.startswith(("--upload-pack", "-u")) for a in rest if sub != "pull"):
            f.hit("CAT022", f"{f.label} (--upload-pack)")
        if any(w.startswith("ext::") for w in rest):
            f.hit("CAT006", f"{f.label} (ext:: transport)")


#: Variables that name the repository a git command works on.
_REPO_VARIABLES = frozenset({"GIT_DIR", "GIT_WORK_TREE"})
#: Sub-commands that work on no existing repository (they make one, or only print).
_NO_REPOSITORY = frozenset({"clone", "init", "help", "version"})


def _foreign_repository(f: Facts, repos: list[str], ctx: Ctx) -> None:
    """A repository that is not the workspace's (``git -C /tmp/x status``, ``cd /tmp/x &&
    git log``, ``--git-dir``, ``GIT_DIR=``): git runs its configuration (``core.pager``,
    ``core.fsmonitor``, aliases, filters) and hooks, which nobody here has read. A
    repository inside the workspace (a submodule, a nested checkout) is the project's."""
    for repo in repos:
        path = resolve(repo, f.base, ctx.home)
        if dynamic(path):
            f.hit("CAT022", f"{f.label} (runs the configuration of the repository {repo}, known only when it runs)")
        elif not ctx.inside(path):
            f.hit("CAT022", f"{f.label} (runs the configuration and hooks of the repository {path}, outside the workspace)")
        else:
            continue
        return


def _git_exec_key(key: str) -> bool:
    low = key.lower()
    return low in C.GIT_EXEC_CONFIG or low.startswith(C.GIT_EXEC_CONFIG_PREFIXES) or low.endswith(C.GIT_EXEC_CONFIG_SUFFIXES)


def _flags(rest: tuple[str, ...]) -> set[str]:
    out: set[str] = set()
    for a in rest:
        if a == "--":
            break
        if a.startswith("--"):
            out.add(a.split("=", 1)[0])
        elif a.startswith("-") and len(a) > 1:
            out.update(["-" + c for c in a[1:]])
    return out


def _git_read_opts(f: Facts, rest: tuple[str, ...], ctx: Ctx) -> str | None:
    flags = _flags(rest)
    if "--output" in flags:
        f.hit("CAT020", f"{f.label} (--output writes a file)")
    if "--ext-diff" in flags:
        f.hit("CAT020", f"{f.label} (--ext-diff runs a program)")
    if "--open-files-in-pager" in flags or ("-O" in flags and f.label.startswith("git grep")):
        f.hit("CAT020", f"{f.label} (opens a pager command)")
    return None


def _git_branch(f: Facts, rest: tuple[str, ...], ctx: Ctx) -> str | None:
    flags = _flags(rest)
    ops = [a for a in rest if not a.startswith("-")]
    if "-D" in flags or (("-d" in flags or "--delete" in flags) and ("-f" in flags or "--force" in flags)):
        return "CAT015"
    if "-d" in flags or "--delete" in flags:
        return "CAT037"
    if ("-f" in flags or "--force" in flags or "-M" in flags or "-C" in flags) and ops:
        return "CAT038"
    if not ops or flags & {"-a", "-r", "-l", "--list", "-v", "-vv", "--show-current", "--contains", "--merged", "--no-merged", "--points-at", "--format", "--sort"}:
        return "r"
    return "l"


def _git_tag(f: Facts, rest: tuple[str, ...], ctx: Ctx) -> str | None:
    flags = _flags(rest)
    ops = [a for a in rest if not a.startswith("-")]
    if "-d" in flags or "--delete" in flags:
        return "CAT037"
    if "-f" in flags or "--force" in flags:
        return "CAT038"
    if not ops or flags & {"-l", "--list", "-n", "--contains", "--points-at", "-v", "--verify", "--merged", "--no-merged"}:
        return "r"
    return "l"


def _git_remote(f: Facts, rest: tuple[str, ...], ctx: Ctx) -> str | None:
    ops = [a for a in rest if not a.startswith("-")]
    if not ops or ops[0] in ("show", "get-url"):
        return "r"
    if ops[0] in ("remove", "rm"):
        return "CAT037"
    for word in ops[1:]:
        host = host_of(word)
        if host:
            f.hosts.append(host)
    return "l"


_CONFIG_VALUE_OPTIONS = frozenset({"-f", "--file", "--blob", "--type", "--default", "--comment"})


def _git_config(f: Facts, rest: tuple[str, ...], ctx: Ctx) -> str | None:
    flags = _flags(rest)
    # operands without the values of value-taking options (`--file .git/config KEY VAL`)
    ops = list(parse_args(rest, _CONFIG_VALUE_OPTIONS).operands)
    read_flags = {"--get", "--get-all", "--get-regexp", "--get-urlmatch", "--list", "-l", "--show-origin", "--show-scope", "--name-only", "--get-color", "--get-colorbool"}
    if flags & read_flags or (ops and ops[0] in ("get", "list")) or len(ops) <= 1 and not flags & {"--unset", "--unset-all", "--remove-section", "--rename-section", "--add", "--replace-all", "-e", "--edit"}:
        return "r"
    if flags & {"-e", "--edit"} or (ops and ops[0] == "edit"):
        return "CAT027"
    key = ops[1] if ops and ops[0] in ("set", "unset") and len(ops) > 1 else (ops[0] if ops else "")
    if key and _git_exec_key(key) and not flags & {"--unset", "--unset-all"} and not (ops and ops[0] == "unset"):
        if flags & {"--global", "--system"} or key.lower() == "core.hookspath":
            f.hit("CAT008", f"{f.label} ({key})")
        return "CAT022"
    return "l"


def _git_stash(f: Facts, rest: tuple[str, ...], ctx: Ctx) -> str | None:
    ops = [a for a in rest if not a.startswith("-")]
    sub = ops[0] if ops else ""
    if sub in ("drop", "clear"):
        return "CAT015"
    if sub in ("list", "show"):
        return "r"
    return "l"


_GIT_DISCARD_FLAGS = {"-f", "--force", "--ours", "--theirs", "-p", "--patch", "--pathspec-from-file", "--overlay", "-m", "--merge"}


def _git_checkout(f: Facts, rest: tuple[str, ...], ctx: Ctx) -> str | None:
    flags = _flags(rest)
    if "--" in rest:
        return "CAT015"
    ops = [a for a in rest if not a.startswith("-")]
    if flags & {"-b", "-B", "--orphan"} and not flags & _GIT_DISCARD_FLAGS and len(ops) <= 2:
        return "l"
    if flags & {"-t", "--track", "--detach"} and not flags & _GIT_DISCARD_FLAGS and len(ops) <= 1:
        return "l"
    if flags & _GIT_DISCARD_FLAGS or "." in ops or any("*" in o for o in ops):
        return "CAT015"
    if len(ops) >= 2:
        return "CAT015"
    if len(ops) == 1 and not _switches_to(ops[0], f.base) and not _named_before(ops[0], f, ctx):
        # ``git checkout README.md``: a path, not a branch — git overwrites it from the
        # index, throwing its uncommitted edits away like ``git restore``. A name an
        # earlier command of the line makes a branch of (``git fetch origin x && git
        # checkout x``, ``git branch x && git checkout x``) is that branch
        return "CAT015"
    return "l"


def _named_before(name: str, f: Facts, ctx: Ctx) -> bool:
    """``name`` is a word of an earlier command on the line, which is not itself a file
    here (a branch or tag that command makes or fetches)."""
    import re

    at = ctx.source.find(f.cmd.text) if f.cmd.text else -1
    if at <= 0 or os.path.lexists(posixpath.join(f.base, name)):
        return False
    return bool(re.search(rf"(?<![\w./-]){re.escape(name)}(?![\w./-])", ctx.source[:at]))


#: ``HEAD``, ``HEAD~2``, ``@^``, ``@{-1}``, ``main~3``, a commit id: commits, never paths.
_COMMITISH = LazyPattern(r"(?:HEAD|@|[0-9a-f]{7,40})(?:[~^]\d*)*|@\{-?\d+\}|.+[~^]\d*")


def _switches_to(name: str, base: str) -> bool:
    """``git checkout NAME`` switches to a commit: ``-``, a commit-ish, or a branch,
    tag or fetched remote branch of the repository above ``base`` (read from its refs)."""
    if name == "-" or _COMMITISH.fullmatch(name):
        return True
    git = _git_dir(base)
    if git is None:
        return False
    common = git
    try:
        with open(posixpath.join(git, "commondir"), encoding="utf-8") as handle:  # a linked worktree
            common = posixpath.normpath(posixpath.join(git, handle.read().strip()))
    except OSError:
        pass
    try:
        with open(posixpath.join(git, "HEAD"), encoding="utf-8") as handle:
            if handle.read(4096).strip() == f"ref: refs/heads/{name}":
                return True  # the current branch, born or not
    except OSError:
        pass
    refs = posixpath.join(common, "refs")
    if any(os.path.isfile(posixpath.join(refs, kind, name)) for kind in ("heads", "tags", "remotes")):
        return True
    try:
        remotes = os.listdir(posixpath.join(refs, "remotes"))
    except OSError:
        remotes = []
    if any(os.path.isfile(posixpath.join(refs, "remotes", remote, name)) for remote in remotes[:16]):
        return True  # ``git checkout feature`` makes a branch tracking ``origin/feature``
    try:
        with open(posixpath.join(common, "packed-refs"), encoding="utf-8") as handle:
            packed = handle.read(1 << 22)
    except OSError:
        return False
    exact = {f"refs/heads/{name}", f"refs/tags/{name}", f"refs/remotes/{name}"}
    for line in packed.splitlines():
        ref = line.partition(" ")[2]
        if ref in exact or ref.startswith("refs/remotes/") and ref.split("/", 3)[-1] == name:
            return True
    return False


def _git_dir(base: str) -> str | None:
    """The git folder of the repository ``base`` is in (``.git``, or the folder a
    worktree's ``.git`` file names)."""
    here = base
    for _ in range(64):
        dot = posixpath.join(here, ".git")
        if os.path.isdir(dot):
            return dot
        if os.path.isfile(dot):
            try:
                with open(dot, encoding="utf-8") as handle:
                    text = handle.read(4096).strip()
            except OSError:
                return None
            return posixpath.normpath(posixpath.join(here, text[8:].strip())) if text.startswith("gitdir: ") else None
        if here == "/":
            return None
        here = posixpath.dirname(here)
    return None


def _git_switch(f: Facts, rest: tuple[str, ...], ctx: Ctx) -> str | None:
    flags = _flags(rest)
    if flags & {"--discard-changes", "-f", "--force"}:
        return "CAT015"
    return "l"


def _git_restore(f: Facts, rest: tuple[str, ...], ctx: Ctx) -> str | None:
    flags = _flags(rest)
    if flags & {"-S", "--staged"} and not flags & {"-W", "--worktree"}:
        return "l"
    return "CAT015"


def _git_reset(f: Facts, rest: tuple[str, ...], ctx: Ctx) -> str | None:
    flags = _flags(rest)
    if flags & {"--hard", "--merge", "--keep"}:
        return "CAT015"
    return "l"


def _git_clean(f: Facts, rest: tuple[str, ...], ctx: Ctx) -> str | None:
    flags = _flags(rest)
    if flags & {"-n", "--dry-run"}:
        return "r"
    if flags & {"-i", "--interactive"}:
        return "CAT027"
    if flags & {"-f", "--force"}:
        return "CAT015"
    return "l"


def _git_push(f: Facts, rest: tuple[str, ...], ctx: Ctx) -> str | None:
    flags = _flags(rest)
    ops = [a for a in rest if not a.startswith("-")]
    for word in ops:
        host = host_of(word)
        if host:
            f.hosts.append(host)
    if any(a.startswith("--receive-pack") or a.startswith("--exec") for a in rest):
        f.hit("CAT022", f"{f.label} (--receive-pack)")
    if flags & {"-f", "--force", "--mirror", "--delete", "-d", "--prune"} or any(o.startswith("+") or o.startswith(":") for o in ops[1:]):
        f.hit("CAT015", f.label)
        return "done"
    return "CAT001"


def _git_rebase(f: Facts, rest: tuple[str, ...], ctx: Ctx) -> str | None:
    flags = _flags(rest)
    if flags & {"--abort", "--continue", "--skip", "--quit", "--show-current-patch"}:
        return "l"
    if "--exec" in flags or "-x" in flags:
        f.hit("CAT006", f"{f.label} (--exec)")
    if flags & {"-i", "--interactive"}:
        return "CAT027"
    return "CAT038"


def _git_reflog(f: Facts, rest: tuple[str, ...], ctx: Ctx) -> str | None:
    ops = [a for a in rest if not a.startswith("-")]
    if ops and ops[0] in ("expire", "delete"):
        return "CAT015"
    return "r"


def _git_gc(f: Facts, rest: tuple[str, ...], ctx: Ctx) -> str | None:
    if any(a in ("--prune=now", "--prune=all") for a in rest):
        return "CAT015"
    return "l"


def _git_update_ref(f: Facts, rest: tuple[str, ...], ctx: Ctx) -> str | None:
    return "CAT015" if "-d" in rest or "--delete" in rest else "CAT038"


def _git_rm(f: Facts, rest: tuple[str, ...], ctx: Ctx) -> str | None:
    return "l" if "--cached" in rest else "CAT010"


def _git_worktree(f: Facts, rest: tuple[str, ...], ctx: Ctx) -> str | None:
    ops = [a for a in rest if not a.startswith("-")]
    if ops and ops[0] == "remove" and _flags(rest) & {"-f", "--force"}:
        return "CAT015"
    if ops and ops[0] == "list":
        return "r"
    return "l"


def _git_submodule(f: Facts, rest: tuple[str, ...], ctx: Ctx) -> str | None:
    ops = [a for a in rest if not a.startswith("-")]
    if ops and ops[0] == "foreach":
        return "CAT006"
    if not ops or ops[0] in ("status", "summary"):
        return "r"
    return "l"


def _git_bisect(f: Facts, rest: tuple[str, ...], ctx: Ctx) -> str | None:
    return "CAT006" if rest[:1] == ("run",) else "l"


def _git_apply(f: Facts, rest: tuple[str, ...], ctx: Ctx) -> str | None:
    if any(a.startswith(("--unsafe-paths", "--directory")) for a in rest):
        return "CAT020"
    if "--check" in rest or "--stat" in rest or "--numstat" in rest:
        return "r"
    return "l"


def _git_archive(f: Facts, rest: tuple[str, ...], ctx: Ctx) -> str | None:
    if any(a.startswith("--exec") for a in rest):
        f.hit("CAT022", f"{f.label} (--exec)")
    if any(a.startswith("--remote") for a in rest):
        return "CAT001"
    return "l"


def _git_clone(f: Facts, rest: tuple[str, ...], ctx: Ctx) -> str | None:
    for i, a in enumerate(rest):
        value = ""
        if a in ("-c", "--config") and i + 1 < len(rest):
            value = rest[i + 1]
        elif a.startswith("--config="):
            value = a.split("=", 1)[1]
        if value and _git_exec_key(value.split("=", 1)[0]):
            f.hit("CAT022", f"{f.label} ({value.split('=', 1)[0]})")
        if a.startswith("--template"):
            f.hit("CAT008", f"{f.label} (--template installs hooks)")
    return None


def _git_init(f: Facts, rest: tuple[str, ...], ctx: Ctx) -> str | None:
    if any(a.startswith("--template") for a in rest):
        f.hit("CAT008", f"{f.label} (--template installs hooks)")
    return None


def _git_commit(f: Facts, rest: tuple[str, ...], ctx: Ctx) -> str | None:
    return None


_GIT_SUBS: dict[str, Callable[[Facts, tuple[str, ...], Ctx], str | None]] = {
    **dict.fromkeys(("log", "diff", "show", "grep", "format-patch", "whatchanged", "diff-tree", "diff-index", "diff-files", "range-diff", "shortlog"), _git_read_opts),
    "branch": _git_branch,
    "tag": _git_tag,
    "remote": _git_remote,
    "config": _git_config,
    "stash": _git_stash,
    "checkout": _git_checkout,
    "switch": _git_switch,
    "restore": _git_restore,
    "reset": _git_reset,
    "clean": _git_clean,
    "push": _git_push,
    "rebase": _git_rebase,
    "reflog": _git_reflog,
    "gc": _git_gc,
    "update-ref": _git_update_ref,
    "rm": _git_rm,
    "worktree": _git_worktree,
    "submodule": _git_submodule,
    "bisect": _git_bisect,
    "apply": _git_apply,
    "archive": _git_archive,
    "clone": _git_clone,
    "init": _git_init,
    "commit": _git_commit,
}

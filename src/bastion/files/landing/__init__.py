"""What a copy, an extraction, a patch or a git checkout puts in place: files whose
names only the source knows.

``cp -r ../evil/. .`` writes ``.`` as far as its argv says, yet it plants
``.git/hooks/pre-commit``, ``.envrc`` and ``.bastion/settings.json`` — names only the
source folder knows. The same holds for ``rsync``, ``tar x``, ``unzip``, ``7z x``, ``ar
x``, ``pax -r``, ``gunzip``, ``patch``, ``git apply`` and for git commands that write
another tree (``checkout``, ``switch``, ``restore --source``, ``reset --hard``,
``merge``, ``rebase``, ``cherry-pick``, ``revert``, ``stash pop``, ``worktree add``,
``read-tree -u``, ``archive | tar x``). This package lists the source at decision time
and yields every path that would land (one record per command family, :data:`FORMS`);
the file layers (``files.layers``) judge those paths with the one protected-path judge
(``check.check_access``) and the runs-later table (``shell.meaning.targets``), so no list of
protected names lives here.

* **Listed** — a folder on disk (walked), an archive's table of contents
  (``tarfile``/``zipfile``/``ar`` headers, read without extracting), a patch's file
  names (``files.patch.diff_names``), a git tree (``git diff --name-only`` or ``git
  ls-tree``), each bounded (:mod:`.limits`). A protected name among the targets is an
  immune ask naming it (``FS007``).
* **Not listable** — a remote source, a value only known at run time, an unreadable or
  unknown format, a 7z archive, something too big, input piped from a program, a source
  or a revision an earlier command in the same script may make: an ordinary ask
  (``FS008``).
* **Absent** — a source that does not exist and that nothing earlier in the script can
  have made: the command fails and lands nothing (``tar xf missing.tar``), so it is
  decided as before.

Paths land *lexically* below the destination resolved through its symlinks: a name in an
archive or a folder is judged where it would be written, ``..`` folded (over-reporting an
archive that ``tar`` would refuse is the safe side). Links in archives count twice: the
link's own name and where it points. A ``{}`` that ``find -exec`` or ``xargs`` fills at
run time is not listed (``shell.meaning.paths`` does not name it either).

The examples of each record assume this scene, which ``tests/test_copy_plants.py``
builds for real: a git project (branches ``main``, ``evil`` adding ``.envrc`` and
``.vscode/tasks.json``, ``feature`` changing ``src/``; a stash holding an untracked
``.envrc``) next to ``../evil/`` (``.git/hooks/pre-commit``, ``.envrc``,
``.bastion/settings.json``, ``src/app.py``), ``../clean/`` (``src/``, ``docs/``,
``README.md``) and ``../withgit/`` (its own ``.git``, ``lib/``); in the project
``fixtures.tar`` (``.envrc``), ``fixtures.tgz`` and ``fixtures.zip``
(``.git/hooks/pre-commit``), ``nested.tar`` (``pkg/.bastion/settings.json``),
``links.tar`` (``vendor/hooks -> ../.git/hooks``), ``links.zip`` (``env -> .envrc``),
``plant.a`` (``.envrc``), ``lib.a``, ``dotenv/.envrc.gz``, ``dist.zip``,
``node-v20.tar.gz``, ``bundle.7z`` (a real 7z header), ``corrupt.tar``, ``evil.patch``
(adds ``.envrc``), ``x.diff`` (changes ``.bastion/settings.json``), ``fix.patch``
(changes ``src/app.py``), ``rename.patch`` (``notes.txt`` → ``.vscode/tasks.json``) and
an empty ``build/``.
"""

from __future__ import annotations

from ...shell.catalog.catalog import canonical_name
from ...shell.meaning.paths import command_base
from . import limits
from .scene import Landing, Scene, Unlistable, git_sub

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence
    from typing import Any

__all__ = ["FORMS", "FINDINGS", "Form", "Landing", "Unlistable", "landings", "NAMES", "limits"]


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


class Form:
    """One family of commands that put files in place from a source: how the source is
    listed, why it matters, and examples in the scene above — ``match`` plants a
    protected name (an immune ask, FS007), ``unlistable`` cannot be listed (an ask,
    FS008), ``not_match`` is decided as before (allowed)."""

    __slots__ = ("id", "commands", "listed_by", "why", "lister", "match", "unlistable", "not_match")

    def __init__(self, id: str, commands: frozenset[str], listed_by: str, why: str,
                 lister: str, *, match: tuple[str, ...],
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

    def targets(self, scene: Scene) -> Iterator[str]:
        """The paths the command puts in place; ``lister`` is ``module:function`` in this
        package, imported on first use (the hook imports none of them for other commands)."""
        from ...std_lite import import_module

        module, _, function = self.lister.partition(":")
        return getattr(import_module(f"{__name__}.{module}"), function)(scene)


FORMS: tuple[Form, ...] = (
    Form(
        "copy", frozenset({"cp", "mv", "ln", "install", "scp"}),
        "the source folder, walked (bounded); a file by its name",
        "a copied folder brings every name inside it; a copied file keeps its name below a destination folder",
        "copies:copy",
        match=("cp -r ../evil/. .", "cp -R ../evil/.bastion .", "cp ../evil/.envrc .", "mv ../evil/.bastion ."),
        not_match=("cp -r src/ build/", "cp -r ../clean/. .", "cp src/app.py src/app.py.bak"),
    ),
    Form(
        "sync", frozenset({"rsync"}),
        "the source folder, walked (bounded), simple --exclude names honoured",
        "rsync SRC/ DEST brings SRC's content, rsync SRC DEST brings SRC itself",
        "copies:rsync",
        match=("rsync -a ../evil/ ./", "rsync -a ../evil/.git ."),
        unlistable=("rsync -a backup-host:evil/ ./",),
        not_match=("rsync -a ../clean/ vendor/", "rsync -a --exclude=.git ../withgit/ vendor/"),
    ),
    Form(
        "tar", frozenset({"tar", "bsdtar", "gtar", "jar"}),
        "the archive's table of contents (tarfile; zip for bsdtar), without extracting",
        "an archive names its members; tar x writes them below -C, after --strip-components",
        "archives:tar",
        match=("tar xf fixtures.tar", "tar -xzf fixtures.tgz", "tar --extract --file=fixtures.tar", "jar xf fixtures.zip",
               "tar -C build -xf fixtures.tar", "tar xf nested.tar --strip-components=1", "cat fixtures.tar | tar x"),
        unlistable=("tar xf corrupt.tar", "tar --transform 's,x,.envrc,' -xf fixtures.tar"),
        not_match=("tar xzf node-v20.tar.gz", "tar tf fixtures.tar", "tar xOf fixtures.tar .envrc", "tar xf missing.tar"),
    ),
    Form(
        "unzip", frozenset({"unzip"}),
        "the zip's central directory (zipfile)",
        "a zip names its members; unzip writes them below -d",
        "archives:unzip",
        match=("unzip fixtures.zip", "unzip -o fixtures.zip", "unzip fixtures"),
        not_match=("unzip dist.zip -d out", "unzip -l fixtures.zip", "unzip missing.zip -d out"),
    ),
    Form(
        "7z", frozenset({"7z", "7za", "7zr"}),
        "a zip or tar inside is listed; a 7z archive cannot be",
        "7z x writes an archive's members below -o; no lister for the 7z format is at hand",
        "archives:sevenzip",
        match=("7z x fixtures.zip", "7za x -y fixtures.tar -obuild"),
        unlistable=("7z x bundle.7z",),
        not_match=("7z l bundle.7z",),
    ),
    Form(
        "decompress", frozenset({"gunzip", "gzip", "bunzip2", "bzip2", "xz", "unxz", "zstd", "unzstd", "lzma", "unlzma"}),
        "the operand's name without its suffix",
        "gunzip x/.envrc.gz writes x/.envrc",
        "archives:decompress",
        match=("gunzip -k dotenv/.envrc.gz",),
        not_match=("gzip -d missing.log.gz",),
    ),
    Form(
        "patch", frozenset({"patch"}),
        "the diff's file names (files.patch.diff_names): -p N, -d DIR, or the one file named",
        "a patch names the files it creates and changes; -p strips the a/ b/ prefixes",
        "patches:patch",
        match=("patch -p1 < x.diff", "patch -p1 -i x.diff"),
        not_match=("patch -p1 < fix.patch",),
    ),
    Form(
        "pax", frozenset({"pax"}),
        "the archive's table of contents (-r); the operands, walked (-rw)",
        "pax -r writes an archive's members here; pax -rw copies folders like cp -r",
        "archives:pax",
        match=("pax -r -f fixtures.tar", "pax -r < fixtures.tar"),
        not_match=("pax -f fixtures.tar",),
    ),
    Form(
        "ar", frozenset({"ar"}),
        "the ar archive's member headers",
        "ar x writes each member, by its name, into the current folder",
        "archives:ar",
        match=("ar x plant.a",),
        not_match=("ar t plant.a", "ar x lib.a"),
    ),
    Form(
        "git_patch", frozenset({"git apply", "git am"}),
        "the patch's file names (files.patch.diff_names), -p N and --directory applied",
        "git apply and git am write the files a patch names",
        "git:git",
        match=("git apply evil.patch", "git apply rename.patch", "git am evil.patch"),
        not_match=("git apply fix.patch", "git apply --stat evil.patch"),
    ),
    Form(
        "git_tree", frozenset({"git checkout", "git switch", "git restore", "git reset", "git merge", "git rebase",
                               "git cherry-pick", "git revert", "git stash", "git worktree", "git read-tree"}),
        "git diff --name-only HEAD TREE (HEAD...X for merge and rebase, a commit's own changes for cherry-pick "
        "and revert, a stash's changes and untracked files; git ls-tree without a HEAD)",
        "switching, restoring, resetting, merging or picking writes the files that differ from HEAD; a branch, "
        "a stash or a fetched commit can carry a protected file nobody wrote in this session",
        "git:git",
        match=("git checkout evil -- .", "git checkout evil", "git switch evil", "git restore --source=evil .",
               "git merge evil", "git cherry-pick evil", "git stash pop", "git worktree add wt evil",
               "git read-tree -u --prefix=vendor/ evil"),
        not_match=("git checkout -b topic", "git switch feature", "git merge feature", "git switch nothing-here",
                   "git stash list"),
    ),
)


#: Command name (``git apply``-style for git) → its record.
NAMES: dict[str, Form] = {name: form for form in FORMS for name in form.commands}


def _label(cmd: Any) -> str:
    text = " ".join(cmd.argv)
    return text if len(text) <= 60 else text[:57] + "..."


def landings(commands: Sequence[Any], *, cwd: str, home: str, source: str = "", complex_: bool = False) -> list[Landing]:
    """Every copy or extraction among ``commands`` (a parse's simple commands, in
    order), each with the paths it would put in place. ``complex_``: the parse was too
    complex, so words may hold expansions only the shell knows."""
    out: list[Landing] = []
    for index, cmd in enumerate(commands):
        if not cmd.argv:
            continue
        name = canonical_name(cmd.name)
        if name == "git":
            name = "git " + git_sub(cmd.argv[1:])[0]
        form = NAMES.get(name)
        if form is None:
            continue
        scene = Scene(cmd, name.split(" ", 1)[0], command_base(cmd, cwd, home), home, _before(commands, index),
                       commands, source, complex_)
        out.append(Landing(_label(cmd), form.targets(scene)))
    return out


def _before(commands: Sequence[Any], index: int) -> list[Any]:
    """The commands that finish before ``commands[index]`` starts: those before it,
    less the other stages of its own pipeline (they run alongside it)."""
    cmd = commands[index]
    if cmd.pipeline < 0:
        return list(commands[:index])
    return [c for c in commands[:index] if c.pipeline != cmd.pipeline]

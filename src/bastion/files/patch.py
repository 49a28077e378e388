"""The files a Codex-style patch changes (``*** Begin Patch`` … ``*** End Patch``).

A patch names its files only in its text, so bastion reads them out and judges each one
like the path of any other edit: protected paths, the workspace boundary, ``Edit(...)``
rules, ``acceptEdits``. One reader for every way a patch arrives: Codex's ``apply_patch``
tool, and ``apply_patch``/``applypatch`` in a shell command (its argument or here-document).

Codex's parser (``codex-rs/apply-patch``) trims each hunk header before matching it and
splits lines on ``\\n`` only; this reader takes **every** line that looks like a header
once trimmed, wherever it stands, so it sees at least the files Codex would change:

* ``*** Add File: P`` and ``*** Update File: P`` write P;
* ``*** Delete File: P`` deletes P;
* ``*** Move to: Q`` right after ``*** Update File: P`` writes Q and takes P away
  (a delete of P).

The lines a patch adds are what it plants in each file (``patch_additions``): a patch to
a file that runs later is judged by them, as a ``Write`` of that file is.

Unified, context and git diffs (what ``git apply`` and ``patch`` read) name their files
in header lines; ``diff_names`` reads those out for ``files.landing``, which judges
every file such a patch would put in place.
"""

from __future__ import annotations

READ, WRITE, DELETE = "read", "write", "delete"

#: Header → what it does to the file it names.
HEADERS: tuple[tuple[str, str], ...] = (
    ("*** Add File: ", WRITE),
    ("*** Update File: ", WRITE),
    ("*** Delete File: ", DELETE),
)
MOVE_TO = "*** Move to: "

#: Commands that apply such a patch: Codex intercepts both names in a shell command,
#: and installs them as helper programs on some setups.
PATCH_COMMANDS = frozenset({"apply_patch", "applypatch"})


def patch_changes(patch: str) -> list[tuple[str, str]]:
    """``(op, path)`` for every file the patch changes, in order, without repeats; op is
    ``write`` or ``delete``. The path is as written (relative paths are relative to the
    directory the patch is applied in)."""
    changes: list[tuple[str, str]] = []
    updated: int | None = None  # index in ``changes`` of the Update header just read
    for line in patch.split("\n"):
        text = line.strip()
        if not text.startswith("*** "):
            updated = None
            continue
        if text.startswith(MOVE_TO):
            target = text[len(MOVE_TO):]
            if target:
                if updated is not None:
                    changes[updated] = (DELETE, changes[updated][1])
                changes.append((WRITE, target))
            updated = None
            continue
        updated = None
        for header, op in HEADERS:
            if text.startswith(header) and text[len(header):]:
                changes.append((op, text[len(header):]))
                if header == "*** Update File: ":
                    updated = len(changes) - 1
                break
    return list(dict.fromkeys(changes))


def patch_additions(patch: str) -> dict[str, str]:
    """The lines a patch adds (``+…``), by the file they end up in (an added file, an
    updated one, or where it is moved to): what it plants there."""
    added: dict[str, list[str]] = {}
    target: str | None = None
    for line in patch.split("\n"):
        text = line.strip()
        if text.startswith("*** "):
            target = None
            for header in ("*** Add File: ", "*** Update File: ", MOVE_TO):
                if text.startswith(header) and text[len(header):]:
                    target = text[len(header):]
            continue
        if target is not None and line.startswith("+"):
            added.setdefault(target, []).append(line[1:].rstrip("\r"))
    return {path: "\n".join(lines) for path, lines in added.items()}


def patch_files(patch: str) -> list[str]:
    """The paths a patch changes (written, deleted or moved to), in order."""
    return list(dict.fromkeys(path for _op, path in patch_changes(patch)))


# --------------------------------------------------------------------------- unified diffs

#: Header lines of unified, context and git diffs that name a file. ``(prefix, stripped)``:
#: ``stripped`` names carry the ``a/``/``b/`` style prefix that ``-p N`` takes away;
#: git's ``rename to``/``copy to`` names are repository paths (git strips ``N - 1``).
DIFF_HEADERS: tuple[tuple[str, bool], ...] = (
    ("+++ ", True),
    ("--- ", True),
    ("rename from ", False),
    ("rename to ", False),
    ("copy from ", False),
    ("copy to ", False),
    ("Index: ", False),
)


def _unquote(name: str) -> str:
    """A name as git writes an unusual one: ``"a/caf\\303\\251"`` → ``a/café``."""
    if len(name) < 2 or not (name.startswith('"') and name.endswith('"')):
        return name
    raw, out, i = name[1:-1], bytearray(), 0
    simple = {"n": b"\n", "t": b"\t", '"': b'"', "\\": b"\\", "a": b"\a", "b": b"\b", "f": b"\f", "r": b"\r", "v": b"\v"}
    while i < len(raw):
        ch = raw[i]
        if ch == "\\" and i + 1 < len(raw):
            nxt = raw[i + 1]
            digits = raw[i + 1:i + 4]
            if len(digits) == 3 and all(c in "01234567" for c in digits):
                out.append(int(digits, 8) & 0xFF)
                i += 4
                continue
            out += simple.get(nxt, nxt.encode())
            i += 2
            continue
        out += ch.encode()
        i += 1
    return out.decode("utf-8", "replace")


def diff_names(text: str) -> list[tuple[str, bool]]:
    """Every file name a unified, context or git diff names, as written, with whether
    ``-p`` strips it (see :data:`DIFF_HEADERS`); ``/dev/null`` left out. Old and new
    names both count (GNU patch may pick either): more files, never fewer. A Codex patch
    (``*** Begin Patch``) gives its own paths (:func:`patch_files`), never stripped."""
    if "*** Begin Patch" in text:
        return [(path, False) for path in patch_files(text)]
    names: list[tuple[str, bool]] = []
    for line in text.split("\n"):
        line = line.rstrip("\r")
        if line.startswith("diff --git "):
            rest = line[len("diff --git "):]
            if rest.startswith('"') or " b/" not in rest:
                names.extend((n, True) for n in _git_pair(rest))
            else:
                a, _, b = rest.partition(" b/")
                names.extend([(a, True), ("b/" + b, True)])
            continue
        if line.startswith("*** ") and not line.rstrip().endswith("****"):
            names.append((_header_name(line[4:]), True))  # a context diff's old file
            continue
        for prefix, stripped in DIFF_HEADERS:
            if line.startswith(prefix):
                names.append((_header_name(line[len(prefix):]), stripped))
                break
    return list(dict.fromkeys((n, s) for n, s in names if n and n != "/dev/null"))


def _header_name(rest: str) -> str:
    """The name in ``--- NAME<TAB>date``: up to the tab, quotes undone."""
    name = rest.split("\t", 1)[0].rstrip()
    return _unquote(name) if name.startswith('"') else name


def _git_pair(rest: str) -> list[str]:
    """The two names of ``diff --git "a/x y" "b/x y"``-style headers."""
    import shlex

    try:
        return [_unquote(f'"{part}"') if "\\" in part else part for part in shlex.split(rest)]
    except ValueError:
        return []

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

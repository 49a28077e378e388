"""The one mode resolver: how a permission mode is read, and which one applies.

A mode can come from three places: an explicit flag or library argument (``--mode``,
``Guard(mode=…)``), the client's payload (Claude Code's ``permission_mode``, the
``mode`` of ``bastion check``'s JSON) and the settings' ``defaultMode``. Every place
that reads one goes through :func:`parse_mode`, and every place that needs the mode a
call runs in goes through :func:`resolve_mode` (``Guard.effective_mode``).
"""

from __future__ import annotations

from ..model import Mode


def parse_mode(value: object, *, strict: bool = True) -> Mode | None:
    """A mode field as a Mode; None when there is none (``None``).

    Strict (a flag, a library argument, ``bastion check``'s JSON): an unknown name
    raises ``ValueError`` naming the known ones. Lenient (a client's payload): an
    unknown name or a non-string counts as no mode, so a client's newer mode never
    breaks the hook — the settings' ``defaultMode`` then applies."""
    if value is None:
        return None
    if not isinstance(value, str):
        if strict:
            raise ValueError(f"a permission mode must be a string, not {type(value).__name__}")
        return None
    try:
        return Mode.parse(value)
    except ValueError:
        if strict:
            raise
        return None


def resolve_mode(flag: Mode | None = None, payload: Mode | None = None, default: Mode | None = None) -> Mode:
    """The mode a call runs in: an explicit flag beats the client's payload, which
    beats the settings' ``defaultMode``; ``default`` mode when none says."""
    for mode in (flag, payload, default):
        if mode is not None:
            return mode
    return Mode.DEFAULT

"""A .env file made from its template is not a secret written by the agent.

``cp .env.example .env.local`` and ``cp services/api/.env.test.example
services/api/.env.test`` are how a project is set up: the template (the path table's
``env-template`` row) holds placeholders, so the new file holds no secret, and while the
destination does not exist yet none is replaced. Such a copy does not raise the
"looks like a secret" write question (FS004). Copying onto a .env file that exists
(its secrets would be lost), copying anything else onto one, or writing one by other
means (``echo KEY=x > .env.local``) still asks.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..core.context import Context

__all__ = ["made_from_templates"]

#: Commands whose one read and one write make the written file a copy of the read one.
_COPIERS = frozenset({"cp"})


def made_from_templates(ctx: Context) -> frozenset[str]:
    """The resolved .env files this shell call creates by copying their template."""
    parsed = ctx.parsed
    if parsed is None or not any(cmd.name in _COPIERS for cmd in parsed.commands):
        return frozenset()
    from ..paths.match import rows_for

    def row(path: str, row_id: str) -> bool:
        return any(hit.row.id == row_id for hit in rows_for(path, ctx.home))

    made: set[str] = set()
    for cmd in parsed.commands:
        if cmd.name not in _COPIERS or cmd.wrappers:
            continue
        uses = ctx.paths_of(cmd)
        reads = [u.path for u in uses if u.op == "read"]
        writes = [u.path for u in uses if u.op == "write"]
        if len(reads) == 1 and len(writes) == 1 and row(reads[0], "env-template") and row(writes[0], "dotenv") \
                and not os.path.lexists(writes[0]):
            made.add(writes[0])
    return frozenset(made)

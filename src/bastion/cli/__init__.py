"""The ``bastion`` command: one module per verb or group of verbs.

* ``check`` — ``check`` (one call, ``--batch``, ``--prompt``) and ``explain``;
* ``rules`` — ``rules list|add|test``, ``trust``, ``untrust``;
* ``audit`` — ``audit tail``; ``replay`` — ``replay`` (agents' histories judged now);
* ``demo`` — ``demo``; ``accuracy`` — ``eval``;
* ``integrations`` — ``hook``, ``install``, ``uninstall``, ``mcp-proxy``;
* ``run`` — ``run`` and ``doctor`` (the sandbox); ``scan`` — ``scan`` (prompt injection);
* ``app`` — the parser and the dispatch; ``common`` — what the verbs share.

Exit status of ``check`` and ``explain`` (a contract scripts rely on): 0 allow, 3 ask,
4 deny, 2 bad input (with one line on stderr, never a traceback).

``bastion hook`` runs on every tool call, so this module imports nothing but ``sys``:
``main`` hands ``hook`` to the thin client (``hook.client``) before anything else loads.
"""

import sys

TYPE_CHECKING = False  # no `typing` import: `bastion hook` starts from this module
if TYPE_CHECKING:
    from collections.abc import Sequence


def main(argv: "Sequence[str] | None" = None) -> int:
    """Entry point of ``bastion`` (``[project.scripts]``) and ``python -m bastion``."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["hook"]:  # every tool call: skip argparse and import only the decision path
        from ..hook.client import main as hook_main

        return hook_main(argv[1:])
    from .app import run

    return run(argv)

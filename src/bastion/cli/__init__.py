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
The installed command starts at :func:`entry`, which runs the one-shot verbs without the
collector and ends them without the interpreter's teardown (``one_shot``).
"""

import sys

TYPE_CHECKING = False  # no `typing` import: `bastion hook` starts from this module
if TYPE_CHECKING:
    from collections.abc import Sequence


def main(argv: "Sequence[str] | None" = None, *, one_shot: bool = False) -> int:
    """Entry point of ``bastion`` (``[project.scripts]``) and ``python -m bastion``. A
    ``one_shot`` process loads bastion's modules from the bundle (``bastion.bundle``)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["hook"]:  # every tool call: skip argparse and import only the decision path
        from ..hook.client import main as hook_main

        return hook_main(argv[1:], one_shot=one_shot)
    if one_shot:
        from ..bundle import install

        install()
    from .app import run

    return run(argv)


#: Verbs that answer once and exit: started without the collector, ended without the
#: interpreter's teardown (``one_shot``). ``check --batch`` decides many calls, with it.
ONE_SHOT = frozenset({"hook", "check", "explain"})


def entry() -> None:
    """The installed ``bastion`` command (``[project.scripts]``): :func:`main`, ended as
    ``sys.exit`` would end it."""
    one_shot = sys.argv[1:2] and sys.argv[1] in ONE_SHOT and "--batch" not in sys.argv  # a batch runs long
    if one_shot:
        from ..one_shot import finish, no_collector

        no_collector()
        finish(main(one_shot=True))
    sys.exit(main())

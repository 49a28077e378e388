"""``python -m bastion`` is the ``bastion`` command."""

import sys

if sys.argv[1:2] == ["hook"]:  # every tool call: the thin hook client, before anything else loads
    from .hook.client import main as hook_main
    from .one_shot import finish, no_collector

    no_collector()
    finish(hook_main(sys.argv[2:], one_shot=True))

from .cli import entry

entry()

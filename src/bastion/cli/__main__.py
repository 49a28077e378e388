"""``python -m bastion.cli`` is the ``bastion`` command."""

from . import entry

entry()

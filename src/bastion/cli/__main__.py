"""``python -m bastion.cli`` is the ``bastion`` command."""

import sys

from . import main

sys.exit(main())

"""``python -m bastion`` is the ``bastion`` command."""

import sys

from .cli import main

sys.exit(main())

"""`python3 -m narrator`: the same program as the installed `narrator` command, for a checkout
that was never installed."""

import sys

from .cli import main

sys.exit(main())

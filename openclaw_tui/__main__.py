"""``python -m openclaw_tui`` runs the ``openclaw-tui`` command."""

import sys

from .cli import main

sys.exit(main())

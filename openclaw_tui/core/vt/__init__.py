"""The VT vocabulary and the cheap scans of a child's raw output that the core makes on the ingest path.

``sequences`` names every escape sequence and terminal mode the product reads or answers (the terminal
engine reads them here too). ``modes`` tracks the modes that key encoding and paste need, ``queries``
finds the questions a real terminal would answer, and ``plaintext`` turns a stream into the plain text an
agent reads.
"""

from ..exports import lazy_exports

TYPE_CHECKING = False
if TYPE_CHECKING:  # the face: what other packages may import (see core/exports.py)
    from . import sequences as sequences
    from .modes import ModeTracker as ModeTracker
    from .plaintext import StreamText as StreamText
    from .queries import QueryScanner as QueryScanner

__all__, __getattr__ = lazy_exports(__name__, __file__)

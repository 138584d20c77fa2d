"""The host: the one object every surface talks to, tool calls in, results and events out.

``SessionHost`` runs calls through the tool table over its ``Supervisor``, which spawns, supervises and
backgrounds sessions and publishes every change. ``reexec_state`` is the core's half of ``serve --reexec``:
the host's state written out and read back by a new image of itself, ending no session.
"""

from ..exports import lazy_exports

TYPE_CHECKING = False
if TYPE_CHECKING:  # the face: what other packages may import (see core/exports.py)
    from .reexec_state import (
        FORMAT as FORMAT,
        MIN_FORMAT as MIN_FORMAT,
        CannotResume as CannotResume,
        check_format as check_format,
        settings_from_json as settings_from_json,
    )
    from .sessionhost import SessionHost as SessionHost

__all__, __getattr__ = lazy_exports(__name__, __file__)

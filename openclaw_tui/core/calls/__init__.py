"""A tool call as it arrives and the result it gets back: the one shape on every surface.

``toolcall.read`` turns JSON text or an object into a call or a named reason, ``calltext`` reads text
that cannot be trusted (bad JSON, lone surrogates, deep nesting), and ``results`` builds
``{"text": ..., "details": {"status": ...}}``. Only the standard library (and ``session.status``, which is
only an ``enum``) is imported here: ``openclaw-tui call`` uses this package on its way to the socket and must
start in a few tens of milliseconds.
"""

from ..exports import lazy_exports

TYPE_CHECKING = False
if TYPE_CHECKING:  # the face: what other packages may import (see core/exports.py)
    from . import calltext as calltext, toolcall as toolcall
    from .calltext import shown as shown
    from .results import (
        EXEC_FIELDS as EXEC_FIELDS,
        MORE_TIME as MORE_TIME,
        ToolResult as ToolResult,
        dropped_note as dropped_note,
        failure as failure,
        refused as refused,
        result as result,
        waiting_hint as waiting_hint,
    )
    from .toolcall import TOOL_NAMES as TOOL_NAMES, unknown_tool as unknown_tool

__all__, __getattr__ = lazy_exports(__name__, __file__)

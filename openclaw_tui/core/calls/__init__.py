"""A tool call as it arrives and the result it gets back: the one shape on every surface.

``toolcall.read`` turns JSON text or an object into a call or a named reason, ``calltext`` reads text that
cannot be trusted (bad JSON, lone surrogates, deep nesting), and ``results`` builds ``{"text": ..., "details":
{"status": ...}}``. Only the standard library (and ``session.status``, which is only an ``enum``) is imported
here: ``openclaw-tui call`` uses this package on its way to the socket and must start in a few tens of
milliseconds.

**Reading a call.** The host, the socket client, the socket server and ``openclaw-tui call`` all receive calls
that may be broken: text that is not JSON, JSON that is not an object. Each used to word that on its own; here
it is read once, and a call that cannot be read raises ``toolcall.BadCall`` carrying the ``failed`` result
that says why. The tools' names live here too, with the sentence for a name that is none of them, so the
host's table (``tools.table``) and the MCP server say the same thing.

**Text that cannot be trusted** (``calltext``). A call arrives as JSON from agents, scripts and sockets, and
some of it is hostile or simply broken: nesting a hundred thousand levels deep, a number with ten thousand
digits, ``NaN``, a lone UTF-16 surrogate (``"\\udc80"``) that no UTF-8 encoder accepts. Each of these used to
escape as an exception (``RecursionError``, ``ValueError``, ``UnicodeEncodeError``) deep inside the host,
where it became an ``internal-error`` or no answer at all. Here each becomes one readable reason, found before
anything runs.

**Results** (``results``). ``text`` is written for an agent to read and act on; ``details`` is for programs
and always carries ``status`` (running, completed or failed). Keeping the constructors in one place means
every surface (Python API, MCP, the JSON command line) returns exactly the same thing.
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

"""The tools ``exec`` and ``process``: a table of them, their parameters, and what they run.

``table`` checks a call once, in one order, whatever surface it came from, then runs the tool: a
function over ``ToolCore`` (``toolcore``), the narrow side of the host the tools see. ``models`` holds
the parameters agents send, ``keys`` and ``keynames`` turn key names into PTY bytes, ``exitnotices``
queues the notice a background run's end owes its agent, ``nodecalls`` sends a call that belongs to
a node there, and ``gate`` puts every ``exec`` through the exec approvals' policy before it starts.
"""

from ..exports import lazy_exports

TYPE_CHECKING = False
if TYPE_CHECKING:  # the face: what other packages may import (see core/exports.py)
    from .exitnotices import Notices as Notices
    from .gate import waiting_notice as waiting_notice
    from .keys import (
        KeyEncodingError as KeyEncodingError,
        encode_keys as encode_keys,
        key_line_tokens as key_line_tokens,
        paste_bytes as paste_bytes,
    )
    from .models import ACTIONS as ACTIONS, ProcessParams as ProcessParams
    from .nodecalls import (
        NodeListing as NodeListing,
        Nodes as Nodes,
        NoticeRelay as NoticeRelay,
        join_id as join_id,
        split_id as split_id,
    )
    from .process_input import (
        InputRefused as InputRefused,
        InputSent as InputSent,
        send_input as send_input,
        send_input_now as send_input_now,
    )
    from .process_tool import BACKOFF as BACKOFF
    from .table import TOOLS as TOOLS, run_tool as run_tool
    from .toolcore import TerminalEngine as TerminalEngine

__all__, __getattr__ = lazy_exports(__name__, __file__)

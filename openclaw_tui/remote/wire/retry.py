"""How a call rides through its host re-executing itself in place (``serve --reexec``): which calls are sent
again, how many re-execs in a row they ride through, how long the host may take to be back, and the words a
client says when it gives up. ``openclaw-tui call`` and an agent's MCP server both follow it.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not imported from `typing`, which would cost each `openclaw-tui call` a few ms
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

RETRIES = 3  # re-execs in a row a read rides through
BACK_S = 30.0  # how long a host re-executing itself may take to serve again

READS = frozenset({"list", "poll", "log", "screen"})
"""The ``process`` actions a client may send again when the host restarted while they ran: they only read
(a poll that ran before the restart may have taken output the retry then lacks; ``log`` still has it)."""
RESTARTED = ("the openclaw-tui host restarted (re-executed itself in place, keeping its sessions) while this "
             "call ran, so its outcome is unknown; check with list/poll before retrying")


def retry_safe(call: dict[str, Any]) -> bool:
    """Whether ``call`` may be sent again after the host restarted while it ran (see ``READS``)."""
    return call.get("tool") == "process" and call.get("action") in READS


class RideThrough:
    """One call on its way through the host's re-execs. Each time its connection dropped and the same host
    (same ``hostId``) answers again, :meth:`restarted` says whether to send it again or the words to fail it
    with; ``path``, when given, is named in those words (the command line says which host it means)."""

    def __init__(self, call: dict[str, Any], path: Path | None = None) -> None:
        self.safe = retry_safe(call)
        self.path = path
        self.restarts = 0

    def restarted(self) -> str | None:
        """The host restarted under the call: None to send it again, else why not, in one line."""
        self.restarts += 1
        if not self.safe:  # it may or may not have run: only the caller can tell, with list/poll
            return RESTARTED if self.path is None else f"{RESTARTED} (host on {self.path})"
        if self.restarts > RETRIES:
            host = "the openclaw-tui host" if self.path is None else f"the host on {self.path}"
            return f"{host} restarted {RETRIES + 1} times while this call ran; it was not answered"
        return None

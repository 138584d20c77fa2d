"""Exec approvals: the operator decides before a command runs (OpenClaw's policy, off by default).

The layer between the tools and what they launch. ``policy`` says what a run needs before it starts
(``tools.exec.security``, ``ask``, ``askFallback``, per agent, tightened by the allowlist file and by the
call's own ``ask``): to run, to be refused (``exec-denied``), or the operator's approval. What the policy
judges is the command as a real shell grammar reads it (``shellparse``, tree-sitter-bash): only plain
word commands joined by ``&&``, ``||``, ``;`` and ``|`` can match, each segment's program looked up on
the run's PATH with symlinks resolved (``resolve``) and matched against ``exec-approvals.json``
(``allowlist``); ``analysis`` puts that together and writes the command line that then runs, the parsed
argv quoted word by word, so the shell cannot change what was matched. ``unreviewable`` names what no
pattern can judge (inline code, wrappers, REPLs under a PTY), for which "allow always" is not offered.

A run that needs approval is a session from the start: its id is reserved, it is listed and polled as
``approval-pending`` through the ordinary paths, and it starts only when approved. ``request`` is what the
operator sees and the journal keeps; ``pending`` holds the requests with their clocks (expiry, the one
"still waiting" notice), takes the operator's decisions and keeps the history. Deciding is only ever
offered to the operator: the socket refuses it to a process inside a session, and MCP has no way to ask.
Approvals are no boundary against code that already runs as the same user: such code can edit the file,
or run ``openclaw-tui approvals`` from outside the host's sessions; they stop a run before it starts.
"""

from ..exports import lazy_exports

TYPE_CHECKING = False
if TYPE_CHECKING:  # the face: what other packages may import (see core/exports.py)
    from .allowlist import (
        Allowlist as Allowlist,
        AllowlistEntry as AllowlistEntry,
        exact as exact,
        widened as widened,
    )
    from .analysis import Analysis as Analysis, analyze as analyze, moved as moved
    from .pending import (
        DECIDED as DECIDED,
        REQUESTED as REQUESTED,
        Approvals as Approvals,
        Launch as Launch,
        Pending as Pending,
        Refused as Refused,
    )
    from .policy import (
        ASK as ASK,
        DENY as DENY,
        Policy as Policy,
        Verdict as Verdict,
        policy_for as policy_for,
        verdict as verdict,
    )
    from .request import (
        ALLOW_ALWAYS as ALLOW_ALWAYS,
        ALLOW_ONCE as ALLOW_ONCE,
        APPROVED as APPROVED,
        DENIED as DENIED,
        EXPIRED as EXPIRED,
        VOID as VOID,
        WITHDRAWN as WITHDRAWN,
        ApprovalRequest as ApprovalRequest,
        Decision as Decision,
        iso_ms as iso_ms,
        new_approval_id as new_approval_id,
        terminal_name as terminal_name,
        visible as visible,
    )
    from .shellparse import Parsed as Parsed, parse as parse

__all__, __getattr__ = lazy_exports(__name__, __file__)

"""Attention: telling the operator, wherever they are, of a session that needs them.

The host knows within about a second that a session is blocked at a prompt, and at once that one failed; this
package makes sure the operator hears of it whether or not a dashboard is open and in view. ``rules`` holds
``Attention``, a listener on the host's bus that turns events into ``alerts`` (an :class:`~.alerts.Alert` per
event, with the fields every hook gets: ``event``, ``sessionId``, ``agent``, ``node``, ``name``, ``status``,
``exitCode``, ``at`` and ``prompt``) and hands them to the hooks of ``[notify]``: a shell command (``hooks``),
a webhook (``webhook``) and the desktop over D-Bus (``desktop`` on the small client ``dbuswire``). ``mutes``
are the operator's mutes (kept in the journal by the host), ``prompt`` the line a waiting session shows.

**The rules.** An event counts when its kind is in ``[notify] events`` (``waiting``, ``failed``, ``approval``,
``host-died`` by default; ``exited`` and ``node-unreachable`` on request) and its session is not muted. A
session that keeps waiting is announced once until it leaves that state: a spell ends with new output (the
echo of an answer, the program going on) or the session's end, never with a check that once saw no evidence
or a reason that changed, so the same unanswered prompt is told once. A failure is a listed session that ended ``failed`` or with a
non-zero exit code, unless someone killed it (they know) or the operator denied its approval; a session
whose host died is announced by the next host, when it finds it. Approvals join by name: the
``approval-requested`` event kind, or any session event whose status is ``approval-pending``, once per
session. Events of one kind are merged as the dashboard's notices are: the first goes out at once, with every
other found on the same turn (the sessions one check found waiting), and what comes within the next
``MERGE_S`` (half a second) goes out together at its end, so a burst costs at most two messages a second per
kind and nothing waits longer than half a second.

**Delivery never blocks the host.** Each batch goes to each hook in a task of its own: a command through
``sh -c`` in its own process group (ended with everything it left running once it exits, or after the
timeout), a POST over asyncio streams, a D-Bus call over a Unix socket. A hook that fails (a non-zero exit,
no answer within ``timeoutMs``, 10 s, a refused connection, an HTTP error) is retried once after half a
second, then logged (``serve.log``); ``Attention.test`` runs the same deliveries for ``openclaw-tui notify
--test`` and returns how each went. Hooks run as the operator, outside the sandbox, with the alert's fields
(filled into the command, each quoted for where it stands in it, and in its environment as
``OPENCLAW_EVENT``, ``OPENCLAW_SESSION``, …) and never a session's environment. Every batch also goes out on
the bus as ``host-attention``, with ``bell``, so an attached dashboard rings the terminal's bell for exactly
what the hooks heard of.

**Why a D-Bus client of our own.** ``Notify`` is one method call; ``gdbus`` or ``notify-send`` would cost a
process per notification and a package the machine may lack, and say less when it fails. ``dbuswire``
authenticates (EXTERNAL) and marshals the few types the call needs, on the loop, with the bus's own error
names in the failure.
"""

from ..exports import lazy_exports

TYPE_CHECKING = False
if TYPE_CHECKING:  # the face: what other packages may import (see core/exports.py)
    from .alerts import Alert as Alert, AlertBatch as AlertBatch
    from .dbuswire import (
        MEMBER as MEMBER,
        METHOD_CALL as METHOD_CALL,
        Bus as Bus,
        DBusError as DBusError,
        read_message as read_message,
    )
    from .hooks import HookFailed as HookFailed, Outcome as Outcome, fill as fill
    from .mutes import Mutes as Mutes
    from .prompt import waiting_prompt as waiting_prompt
    from .rules import MERGE_S as MERGE_S, Attention as Attention

__all__, __getattr__ = lazy_exports(__name__, __file__)

"""The tools ``exec`` and ``process``: a table of them, their parameters, and what they run.

``table`` checks a call once, in one order, whatever surface it came from, then runs the tool: a function over
``ToolCore`` (``toolcore``), the narrow side of the host the tools see. ``models`` holds the parameters agents
send, ``exec_tool`` and ``process_tool`` are the tools (the four ``process`` actions that send input in
``process_input``), ``keys`` and ``keynames`` turn key names into PTY bytes, ``exitnotices`` queues the notice
a background run's end owes its agent, ``nodecalls`` sends a call that belongs to a node there, and ``gate``
puts every ``exec`` through the exec approvals' policy before it starts.

**One check, one table** (``table``, ``models``). A call is checked once, in one order: the tool's name, the
host's policy for it, the shape of its arguments (``calls.calltext.shape_problem``: text that is not text,
nesting, sizes), then its parameters (the pydantic models of ``models``); a problem becomes a ``failed``
result that names it, never an exception. The models are the single definition of what ``exec`` and
``process`` accept: the host validates calls with them and the MCP server generates its JSON Schemas from
them, listing its tools from the same table. Validation failures name the parameter and the valid values. An
array parameter also takes the array written as JSON text (``'["Enter"]'``), which is what a client sends when
it built its form from a schema it could not read. The run functions are functions over ``ToolCore`` and the
validated parameters, never over the host (as asyncio's transports are driven through a few methods): its
settings, the registry of sessions, the exit notices, the terminal engine, the nodes, and the two acts that
move a session (``spawn`` and ``background``). The host's ``Supervisor`` is the one implementation; a test
could give the tools another.

**exec** (``exec_tool``). The agent's turn should not block on a long build, and should not lose a quick
command's output either, so a run waits up to ``yieldMs`` (or not at all with ``background``) and then returns
either the whole output or a session id with a short tail. A cancelled call takes its foreground run with it;
a backgrounded run lives on under the registry. Where the run executes (its placement: the sandbox, the host
itself, or a node; the config's ``tools.exec.host``, or the call's own ``host``) is decided by the tool,
before the environment check that depends on it, and travels to the launcher in the run's settings.

**process** (``process_tool``, ``process_input``). Each of the ten actions is a small function, and a table
maps action names to them. Problems an agent can fix (no such session, stdin closed, nothing to send) come
back as ``failed`` results that say what to do instead, and a session outside the caller's scope is reported
exactly like a missing one. All input goes through one function, ``process_input.send_input``, whoever sends
it: the ``write``, ``send-keys``, ``submit`` and ``paste`` actions (agents, and the operator's dialogs), the
dashboard's type-through keys (through the host's ``send_input``, or ``send_input_now`` when nothing has to
wait, which spares a keystroke a turn of the event loop) and the socket's ``session.input`` (an attached
dashboard's keys). Stdin must still be writable; a sandboxed program is given the few milliseconds it needs to
hear what is sent (a Ctrl-C must reach the program, not the sandbox launcher), and input sent meanwhile waits
its turn, so keys keep their order; input a program is not reading is refused whole when the queue is full
rather than cut; and the session records who sent it. Keys are encoded for the cursor mode the program asked
for, and a paste is bracketed only when the program turned bracketed paste on, as a terminal does.

**Keys** (``keys``, ``keynames``). Agents name keys the way tmux does (``Enter``, ``C-c``, ``M-x``, ``S-Up``,
``^D``, ``F5``) because that vocabulary is widely known and unambiguous, or the way GUIs and other tools do; a
program on the other end of a PTY only ever sees bytes, so ``keys`` owns the translation. It follows xterm's
encodings (which tmux also emits), including the cursor-key mode a program can switch on: in application
cursor mode the plain arrows are sent as ``ESC O A`` instead of ``ESC [ A``, and sending the wrong form makes
editors and shells misbehave. Small mistakes in the request do not abort the send: a bad hex byte is skipped
and a token that is text rather than a key name is typed literally, each with a human-readable warning so the
agent can tell what actually happened. ``keys`` is pure (no I/O) so it can be tested exhaustively and reused
by both the agent tools and the dashboard's send-keys prompt (``key_line_tokens``). Agents learned key names
from many places: tmux, GUI shortcuts (``Ctrl-C``, ``Ctrl+C``, ``Alt+F4``, ``Shift-Tab``), xdotool and
browsers (``Return``, ``Backspace``, ``ArrowUp``, ``Page_Up``). Each such spelling means one key, so
``keynames`` translates it into tmux's, case-insensitively, rather than typing it into the program as text.
``Ctrl-Shift-C`` is accepted and sent as a terminal sends it: a control byte has no case, so it is Ctrl-C
(0x03), as ``C-S-c`` always was; xterm reports Shift with F1-F12 as F13-F24, so those names mean ``S-F1``...
``S-F12``. GUI-only modifiers (Cmd, Super, Win) never reach a program through a terminal, so a key using one
is refused rather than guessed at. A token that is a near miss of a key name (``Entr``, ``Escpae``,
``Ctlr-C``: the same first letter and one edit away, two for words of six letters or more, a swap of
neighbours counted as one) aborts the send with the name it was probably meant to be, because typing ``Entr``
into a program is never what was wanted; a token with spaces or other punctuation, or a word far from every
key name, is still text, typed literally with a warning.

**Exit notices** (``exitnotices``), so an agent never needs to sleep-loop. One notice per backgrounded session
that ends on its own (or by timeout), queued for the agent that started it and prepended to that agent's next
tool result. No notice when the agent itself (or the operator) killed or removed the session, when a poll
already returned how it ended (or is waiting on the session as it ends, so it will: the MCP log message would
otherwise repeat it), or for an empty successful run unless ``notifyOnExitEmptySuccess`` asks for those too.
The operator's own sessions get no queue (the operator sees exits as dashboard toasts, from the event stream),
and an agent's queue keeps only its newest ``QUEUE_MAX`` notices, so an agent that never calls again cannot
grow the host's memory. A notice is its agent's: only that agent's own poll or log of the ended session, its
own kill, or its next result carrying the notice spends it. The operator's poll, log, screen, clear or remove
(and the dashboard's view) leave it queued, and so do ``clear`` and TTL expiry, as upstream keeps an unpolled
completion deliverable after finished-session cleanup. What the rules need to know (which ends a result already told, which sessions a timed
poll is waiting on) is kept by session id, and forgotten with the session. ``on_told`` hears when an agent
learns how a session ended (a result said so, or it took the notice), so the journal can record it: a notice
still owed when the host dies is queued again by the next host, one already told is not.

**Nodes** (``nodecalls``): calls that run elsewhere, behind a protocol the core does not implement. The core
knows only that a *node* is a named host that takes the same tool calls. How it is reached (the product does
it over OpenSSH, in ``openclaw_tui.remote.nodes``) is injected like the terminal engine, so the core never
imports the transport. The tools decide which calls go where: ``exec`` with ``host: "node"`` and ``node``
(``exec_on_node``); every ``process`` action whose ``sessionId`` names a node (``gpu-box/brisk-atlas``: the
node's name, a slash, the id on that node, unique across machines since a local id has no slash;
``process_on_node``); and ``list``, which merges the local sessions with every node's, newest first
(``merged_listing``). Calls go to a node in the caller's scope and with the parameters the caller gave, so the
node applies its own sandbox, containment and gates (``elevated`` is the node's to allow). A node's exit
notices come back through ``NoticeRelay``, which queues them for the agent and publishes them like the host's
own, so an agent hears of a node's job as of a local one.

**Approvals** (``gate``). Every ``exec`` goes through the policy of ``core/approvals`` (the agent's settings,
captured when the call is admitted, tightened by the call's own ``ask``) before anything starts: run, refuse
(``exec-denied``) or ask. A run that asks is reserved as an ``approval-pending`` session and waits inline for
up to its yield window; a decision in time runs it as usual, otherwise the result says it has not started and
names the session to poll. What runs is the parsed argv rebuilt with every word quoted, its programs looked up
again just before the spawn.
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

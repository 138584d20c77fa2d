"""Modal dialogs: confirmation, new command, send keys, paste and quit.

What every dialog shares (the ``dialog`` CSS class, and the buttons of a form) is in ``base``.

**Approvals** (``approval_queue``, ``pattern_editor``). The queue of exec approval requests across every node:
agent, node, cwd, the masked command, why it asks and a countdown, the full command with control and
bidirectional characters made visible. ``o`` allows once, ``A`` allows always through the pattern editor
(prefilled per unmatched segment with its exact path and arguments, widened to "this path, first N
arguments"), ``d`` denies with an optional reason; Enter never approves and Escape decides nothing.

**New command** (``new_command``): command, working directory, PTY and background, as ``exec`` takes them. It
says where the command will run and what it may write, since a sandboxed run writes only some places. Every
run from here stays in the session list, with its output, after it ends (the app starts it as a session of its
own); "background" off means: take me to it, and type into it at once when it is a PTY. The checkboxes show
their state in text (``[x]`` / ``[ ]``), not only by colour. With nodes configured, a chooser says which
machine runs it: this one (``local``) or a node, whose host then runs it under its own sandbox, in its own
working directory unless one is given.

**Quit** (``quit``). The dashboard is a client of its host, so leaving never has to end anything: keeping the
sessions running on the host (detach) is the first answer and has the focus. Ending them is there for the
operator who is done with every job on view; the third answer is to stay.

**Send keys and paste.** The send-keys prompt reads key names with the same parser as the agents'
``send-keys`` (the core's ``key_line_tokens``) and checks them before anything is sent; the paste dialog sends
multi-line text to one session, bracketed only if the program asked for it.
"""

from .approval_queue import ApprovalQueue, DenyReason
from .confirm import ConfirmDialog
from .new_command import NewCommandDialog
from .paste import PasteDialog
from .pattern_editor import PatternEditor
from .quit import QuitDialog
from .send_keys import SendKeysDialog
from .session_info import SessionInfo

__all__ = ["ApprovalQueue", "ConfirmDialog", "DenyReason", "NewCommandDialog", "PasteDialog", "PatternEditor",
           "QuitDialog", "SendKeysDialog", "SessionInfo"]

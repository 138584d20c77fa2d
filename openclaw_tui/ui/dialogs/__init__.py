"""Modal dialogs: confirmation, new command, send keys, paste, quit, and the approval queue with its
pattern editor."""

from .approval_queue import ApprovalQueue, DenyReason
from .confirm import ConfirmDialog
from .new_command import NewCommandDialog
from .paste import PasteDialog
from .pattern_editor import PatternEditor
from .quit import QuitDialog
from .send_keys import SendKeysDialog

__all__ = ["ApprovalQueue", "ConfirmDialog", "DenyReason", "NewCommandDialog", "PasteDialog", "PatternEditor",
           "QuitDialog", "SendKeysDialog"]

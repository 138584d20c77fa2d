"""Modal dialogs: confirmation, new command, send keys, paste and quit."""

from .confirm import ConfirmDialog
from .new_command import NewCommandDialog
from .paste import PasteDialog
from .quit import QuitDialog
from .send_keys import SendKeysDialog

__all__ = ["ConfirmDialog", "NewCommandDialog", "PasteDialog", "QuitDialog", "SendKeysDialog"]

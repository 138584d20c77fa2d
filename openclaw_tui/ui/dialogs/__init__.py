"""Modal dialogs: confirmation, new command, send keys and paste."""

from .confirm import ConfirmDialog
from .new_command import NewCommandDialog
from .paste import PasteDialog
from .send_keys import SendKeysDialog

__all__ = ["ConfirmDialog", "NewCommandDialog", "PasteDialog", "SendKeysDialog"]

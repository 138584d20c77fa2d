"""The help dialog (``?``): the dashboard's own keys, grouped by what they are for, then Textual's.

Each key is listed under the key it is bound to now, read through the app's keymap as the footer reads them.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingsMap, BindingType
from textual.containers import VerticalScroll
from textual.dom import DOMNode
from textual.widgets import Label, Static

from .dialogs.approval_queue import ApprovalQueue
from .dialogs.base import Dialog
from .dialogs.paste import PasteDialog
from .dialogs.pattern_editor import PatternEditor
from .dialogs.session_info import SessionInfo
from .reading.searchbar import SearchBar
from .sessions.filters import FilterBar
from .sessions.list import SessionList
from .sessions.log_pane import LogPane
from .sessions.pane import SessionsPane
from .sessions.terminal_view import TerminalView
from .sessions.workspace import Workspace
from .tiles import TileGrid

Entry = tuple[type[DOMNode], str, str]  # owner of the binding, binding id, what it does

GROUPS: list[tuple[str, list[Entry]]] = [
    ("Sessions", [
        (DOMNode, "new-command", "start a command (command, workdir, pty, background)"),
        (Workspace, "kill", "kill the selected session, after confirmation"),
        (Workspace, "clear", "clear a finished session from the list"),
        (Workspace, "remove", "remove a session (kills it first, after confirmation)"),
        (Workspace, "mute", "mute or unmute the selected session's notifications"),
        (Workspace, "export", "save the selected session's recording (asciicast; pipes: timed text)"),
        (DOMNode, "rerun", "re-run the selected session: the new-command dialog filled with its call"),
    ]),
    ("Input to the selected session", [
        (Workspace, "type-through", "type-through: every key goes to the session (PTY)"),
        (TerminalView, "leave-type-through", "leave type-through"),
        (Workspace, "send-keys", "send keys as tmux names: C-c Enter Up F5 \"text\""),
        (Workspace, "submit", "submit (Enter)"),
        (Workspace, "paste", "paste a multi-line text"),
        (PasteDialog, "paste-send", "send the paste (in the paste dialog)"),
    ]),
    ("Looking", [
        (SessionList, "list-first", "first session"),
        (SessionList, "list-last", "last session"),
        (Workspace, "log", "the agent's log view, and who sent each input"),
        (LogPane, "log-older", "log view: older lines"),
        (LogPane, "log-newer", "log view: newer lines"),
        (Workspace, "copy", "copy the selection (a drag, a double-click: a word, a triple-click: a line), "
                            "or else copy the screen (PTY) or the log (pipe)"),
        (Workspace, "scroll-up", "scroll the view back into the session's history (also the wheel)"),
        (Workspace, "scroll-down", "scroll the view forward; past the newest line it follows again"),
        (Workspace, "follow", "scrolled back, searched or selected: back to the live output"),
        (Workspace, "zoom", "zoom: the session's view over the whole screen, or back"),
        (DOMNode, "info", "the selected session's processes, ports, container, environment and clocks"),
        (SessionInfo, "info-close", "close the info dialog"),
        (SessionsPane, "sort", "cycle the order: newest, waiting first, CPU, memory, runtime"),
    ]),
    ("Finding", [
        (Workspace, "search", "search the output, screen and history, as you type (smart case)"),
        (SearchBar, "search-regex", "in the search: a regular expression, or plain text"),
        (SearchBar, "search-step", "in the search: the next match back"),
        (Workspace, "search-next", "the next match back (wraps around)"),
        (Workspace, "search-previous", "the previous match, towards the newest"),
        (SessionsPane, "filter", "filter by text in id, name, command or agent"),
        (FilterBar, "filter-clear", "in the filter: clear it"),
        (SessionsPane, "state-filter", "cycle the state: all, running, waiting, finished, failed"),
        (SessionsPane, "node-filter", "with nodes: cycle the node: all, local, then each node"),
        (SessionsPane, "agent-filter", "cycle the agent: all, then each agent listed (the header counts its)"),
    ]),
    ("Dashboard", [
        (DOMNode, "help", "this help"),
        (DOMNode, "quit", "quit: with sessions running, asks whether to keep them running or end them"),
    ]),
    ("Several sessions at once", [
        (Workspace, "mark", "mark the selected session to be tiled, or unmark it (the list shows ●)"),
        (Workspace, "tile", "tiles: up to four marked sessions at once, each live; again: back to the list"),
        (TileGrid, "tile-next", "in the tiles: the focus to the next tile (type-through and keys go there)"),
        (TileGrid, "tile-previous", "in the tiles: the focus to the previous tile"),
    ]),
    ("Approvals (the operator decides before a command runs)", [
        (DOMNode, "approvals", "the queue of requests, every node's: who, where, why, time left"),
        (ApprovalQueue, "approval-once", "in the queue: allow the request once"),
        (ApprovalQueue, "approval-always", "in the queue: allow always (the pattern editor: widen it first)"),
        (PatternEditor, "pattern-allow", "in the pattern editor: add the patterns and allow"),
        (ApprovalQueue, "approval-deny", "in the queue: deny, with an optional reason"),
        (ApprovalQueue, "approval-close", "in the queue: close without deciding (Enter never approves)"),
    ]),
]

TEXTUAL_KEYS = [
    ("↑ ↓ pgup pgdn", "move in the session list"),
    ("tab / shift+tab", "move the focus"),
    ("y / n, escape", "answer or cancel a dialog"),
]


class HelpDialog(Dialog[None]):
    """Lists :data:`GROUPS` with the keys bound now; ``?`` or Escape closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,question_mark,q", "close", "Close", id="help-close")]

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog-box help-box"):
            yield Label("Keys", classes="dialog-title")
            yield Static(self.keys_text(), id="help-keys")

    def keys_text(self) -> Text:
        text = Text()
        for title, entries in GROUPS:
            text.append(f"{title}\n", style="bold")
            for owner, binding_id, what in entries:
                source = app_bindings(self.app, binding_id) if owner is DOMNode else owner.BINDINGS
                self._line(text, keys_of(self.app, source, binding_id), what)
            text.append("\n")
        text.append("Also\n", style="bold")
        for keys, what in TEXTUAL_KEYS:
            self._line(text, keys, what)
        return text

    @staticmethod
    def _line(text: Text, keys: str, what: str) -> None:
        text.append(f"  {keys:>12}", style="bold #ffaf00")
        text.append(f"  {what}\n")

    def action_close(self) -> None:
        self.dismiss(None)


def app_bindings(app: App[Any], binding_id: str) -> list[BindingType]:
    """The app's bindings that define ``binding_id``, the most derived class first."""
    for cls in type(app).__mro__:
        bindings = cls.__dict__.get("BINDINGS", [])
        if any(isinstance(b, Binding) and b.id == binding_id for b in bindings):
            return list(bindings)
    return []


def keys_of(app: App[Any], bindings: list[BindingType], binding_id: str) -> str:
    """The keys bound to ``binding_id`` after the app's keymap (``user_keymap``), as the footer shows them."""
    found = BindingsMap([b for _, b in BindingsMap(bindings) if b.id == binding_id])
    found.apply_keymap(getattr(app, "user_keymap", {}))
    shown = (app.get_key_display(b) for _, b in found)
    return " / ".join(dict.fromkeys("ctrl+" + k[1:] if k.startswith("^") and len(k) > 1 else k for k in shown))

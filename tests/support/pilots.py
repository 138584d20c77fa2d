"""The dashboard driven by a Textual pilot the way an operator drives it, and read back as it draws itself.

Apps run through :func:`run`, which hears every message the app handles (Textual's ``message_hook``):
tests read the notices shown from there (:func:`toasts`), and wait on conditions with :func:`until` (the
app keeps processing messages meanwhile). :class:`ClosingApp` closes its host on unmount, for tests that run
the app on a loop of their own (snapshots). Text cursors do not blink inside :func:`steady_cursors` (a
blinking one is drawn or not depending on the moment of capture, so every capture would differ); the
product never knows about it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar
from weakref import WeakKeyDictionary

from textual.app import App
from textual.message import Message
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Checkbox, Input, TextArea

from openclaw_tui import ToolHost
from openclaw_tui.ui import DashboardApp, app as ui_app
from openclaw_tui.ui.dialogs import NewCommandDialog, QuitDialog
from openclaw_tui.ui.header import SummaryHeader
from openclaw_tui.ui.messages import SessionsChanged
from openclaw_tui.ui.notices import NoticeLine

from .hosts import close_within
from .waiting import wait_for

SIZE = (120, 36)
SMALL = (80, 24)
FIXED_IDS = ("amber-atlas", "bold-beacon", "calm-comet", "deft-delta", "eager-eagle", "fancy-fern",
             "glad-grove", "happy-heron")
"""The session ids snapshots show, in the order sessions start (see the ``frozen`` fixture)."""


def new_host(wait_ms: int = 1000) -> ToolHost:
    """A host on default settings except a short input-wait threshold (1 s, the smallest allowed)."""
    return ToolHost(env={"OPENCLAW_PROCESS_INPUT_WAIT_IDLE_MS": str(wait_ms)}, config_path="/dev/null")


class ClosingApp(DashboardApp):
    """The dashboard on a host of the test's own that it closes when it unmounts: for tests that run the app
    on a loop of its own (``snap_compare``), where no fixture can close the host after it."""

    CSS_PATH = str(Path(ui_app.__file__).with_name("app.tcss"))  # Textual reads it beside the class's module

    def __init__(self, *args: Any, figures: bool = False, **kwargs: Any) -> None:
        # no CPU and memory columns unless asked: their figures differ from one capture to the next
        super().__init__(*args, figures=figures, **kwargs)

    async def on_unmount(self) -> None:
        await super().on_unmount()
        await close_within(self.host)  # type: ignore[arg-type]  # always a ToolHost here


A = TypeVar("A", bound=App[Any])
M = TypeVar("M", bound=Message)
HEARD: WeakKeyDictionary[App[Any], list[Message]] = WeakKeyDictionary()


def run(app: A, size: tuple[int, int] = SIZE) -> contextlib.AbstractAsyncContextManager[Pilot[Any]]:
    """``app.run_test`` at ``size``, hearing every message the app handles (see :func:`heard`)."""
    return app.run_test(size=size, message_hook=HEARD.setdefault(app, []).append)


def heard(app: App[Any], kind: type[M]) -> list[M]:
    """The messages of ``kind`` that ``app``'s widgets have handled so far, oldest first (each once, though
    the hook hears a bubbling message at every widget it reaches)."""
    found = {id(m): m for m in HEARD.get(app, []) if isinstance(m, kind)}
    return list(found.values())


async def until(pilot: Pilot[Any], predicate: Callable[[], Any], what: str, timeout: float = 20.0) -> Any:
    """Let the app run until ``predicate()`` is truthy; fail naming ``what`` after a generous deadline."""
    return await wait_for(predicate, timeout, what, pause=pilot.pause, step=0.05)


async def detach(pilot: Pilot[Any], app: DashboardApp) -> None:
    """Quit, keeping any running sessions running (the quit question's first answer)."""
    await pilot.press("q")
    await until(pilot, lambda: not app.is_running or isinstance(app.screen, QuitDialog), "quitting or the question")
    if app.is_running:
        await pilot.press("d")
    await until(pilot, lambda: not app.is_running, "the app to quit")


def screen_text(app: DashboardApp) -> str:
    return app.workspace.view.terminal.screen_text()


def toasts(app: DashboardApp) -> list[str]:
    """Every notice the app has shown so far, oldest first."""
    return [m.notice.text for m in heard(app, NoticeLine.Shown)]


def drawn(widget: Widget) -> list[str]:
    """The lines ``widget`` draws now (border included), as text."""
    return [strip.text for strip in widget.render_lines(widget.region.reset_offset)]


def header(app: DashboardApp) -> str:
    return "".join(drawn(app.query_one(SummaryHeader)))


def title(app: DashboardApp) -> str:
    """The session view's title line."""
    return "".join(drawn(app.query_one("#view-title")))


def inputs_line(app: DashboardApp) -> str:
    """The session view's inputs line."""
    return "".join(drawn(app.query_one("#view-inputs")))


def selected(app: DashboardApp) -> str | None:
    """The id of the session on view (and highlighted in the list)."""
    return app.workspace.selected.id if app.workspace.selected else None


async def select(pilot: Pilot[Any], app: DashboardApp, sid: str) -> None:
    """Select ``sid`` in the list, once it is listed."""
    await until(pilot, lambda: app.workspace.select(sid) or selected(app) == sid, f"{sid} selected")


async def sync_list(pilot: Pilot[Any], app: DashboardApp) -> None:
    """Have the app look at the sessions now, as a host event or its once-a-second tick would have it."""
    seen = len(heard(app, SessionsChanged))
    app.post_message(SessionsChanged())
    await until(pilot, lambda: len(heard(app, SessionsChanged)) > seen, "the list looked at")
    await pilot.pause()  # the hook hears a message just before its handler runs


def footer_actions(app: DashboardApp) -> dict[str, Any]:
    """The footer's keys by action (looked up by widget type: Textual's ``FooterKey`` is not public)."""
    return {k.action: k for k in app.query("FooterKey")}


async def run_in_the_foreground(pilot, app: DashboardApp, command: str, pty: bool) -> None:
    """Start ``command`` from the new-command dialog with "background" unchecked."""
    await pilot.press("n")
    dialog = await until(pilot, lambda: isinstance(app.screen, NewCommandDialog) and app.screen, "the dialog")
    dialog.query_one("#command", Input).value = command
    dialog.query_one("#workdir", Input).value = "/tmp"
    dialog.query_one("#pty", Checkbox).value = pty
    dialog.query_one("#background", Checkbox).value = False
    await pilot.press("enter")


FIELDS: tuple[type[Input] | type[TextArea], ...] = (Input, TextArea)


def _steady(build: Callable[..., None]) -> Callable[..., None]:
    def init(self: Any, *args: Any, **kwargs: Any) -> None:
        build(self, *args, **kwargs)
        self.cursor_blink = False

    return init


@contextlib.contextmanager
def steady_cursors() -> Iterator[None]:
    """Every text field built inside the context has a cursor that does not blink."""
    builds = {field: field.__init__ for field in FIELDS}
    for field, build in builds.items():
        field.__init__ = _steady(build)  # type: ignore[method-assign]
    try:
        yield
    finally:
        for field, build in builds.items():
            field.__init__ = build  # type: ignore[method-assign]

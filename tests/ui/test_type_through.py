"""Type-through: keys go to the session being typed into, from its first moment and whatever the filter."""

from __future__ import annotations

from textual import events
from textual.message import Message

from openclaw_tui.ui.sessions.terminal_view import TerminalView

from ..support.pilots import SIZE, run, run_in_the_foreground, selected, sync_list, until
from ..support.sessions import start_background

NAME_PROMPT = "read -r -p 'Name? ' n; echo hello $n; sleep 60"


async def test_typing_into_a_session_kept_by_the_waiting_filter_keeps_it_and_type_through(app, host):
    # the echo of a typed key makes the session busy for a moment: the "waiting" filter must not drop the
    # session being typed into, or type-through would end and later keys would act as dashboard commands
    async with run(app, SIZE) as pilot:
        sid = await start_background(host.call, NAME_PROMPT, pty=True, workdir="/tmp")
        session = host.session(sid)
        await until(pilot, lambda: session.waiting_reason is not None, "the prompt waiting")
        await pilot.press("f", "f")  # state filter: waiting
        await until(pilot, lambda: app.workspace.select(sid) and selected(app) == sid, "the session selected")
        await pilot.press("t", "a")
        await until(pilot, lambda: app.workspace.type_through and session.inputs, "the key typed through")
        await until(pilot, lambda: session.waiting_reason is None, "the session busy with the echo")
        await sync_list(pilot, app)
        assert app.workspace.type_through and selected(app) == sid
        await pilot.press("b", "enter")
        await until(pilot, lambda: "hello ab" in session.output.full_text(), "the answer")
        await pilot.press("ctrl+right_square_bracket")
        await until(pilot, lambda: not app.workspace.type_through, "type-through left")



async def test_a_ctrl_c_typed_through_as_a_run_starts_reaches_the_program(app, host):
    # A run started in the foreground takes the keys at once. Sandboxed, its program may not run yet when
    # the first key goes, and the key must wait for it rather than reach the launcher, which ignores it:
    # here the Ctrl-C is typed the moment type-through begins.
    typed: list[Message] = []

    def ctrl_c_at_once(message: Message) -> None:
        if isinstance(message, TerminalView.TypeThroughChanged) and message.active and not typed:
            typed.append(message)  # once: the hook hears the message again at each widget it bubbles to
            app.post_message(events.Key("ctrl+c", None))

    async with app.run_test(size=SIZE, message_hook=ctrl_c_at_once) as pilot:
        await run_in_the_foreground(pilot, app, "sleep 300", pty=True)
        session = await until(pilot, lambda: host.sessions() and host.sessions()[0], "the run")
        await until(pilot, lambda: not session.running, "the run ended by the Ctrl-C")
        assert session.exit.signal == "SIGINT" and [(r.source, r.preview) for r in session.inputs] == [
            ("operator", "\x03")]

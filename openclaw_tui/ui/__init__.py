"""The Textual dashboard (it imports the core; the core never imports it).

:func:`make_app` is the one way to build the app, used by the CLI and the tests alike; :func:`run_dashboard`
is what ``openclaw-tui`` and ``openclaw-tui attach`` run: the dashboard is always a client of the host serving
this user's socket, which it starts in the background when none serves (``openclaw-tui`` only). The host
outlives the dashboard: quitting detaches unless the operator chooses to end the sessions. Textual (and the
mirror, which brings the core) are imported only once the host is being looked for (and started) in a thread,
so the two overlap: the first list shows sooner. ``sessions`` holds the session part of the screen and
``dialogs`` the modal dialogs; the modules here are the app and what surrounds the sessions.

**The app** (``app``). It is given its host, as a ``HostView`` (a mirror of the host serving the socket, or in
tests one in this process), and never owns its lifetime: the sessions are the host's, and leaving the
dashboard only stops watching them. Quitting while sessions run asks whether to keep them running (detach) or
end them (``dialogs.quit``); a hang-up or SIGTERM detaches. Host events arrive through the bridge as messages;
waiting changes, by the idle rule or the kernel's evidence, come as list changes; a once-a-second tick updates
the runtimes shown. Notifications go to the notice line, and ``announce`` decides which changes are news. The
header says how the link to the host stands (reconnecting after a re-exec of the host, gone for good).

**Host events as messages** (``eventbridge``, ``messages``). The host calls its listeners synchronously on the
shared asyncio loop, once per event, and output events arrive once per read from a child: far more often than
anyone can look. The bridge (``HostBridge``) listens through the core's ``OutputCoalescer``, as every consumer
of the event bus does, so a session's output posts one ``SessionOutput`` and the next only after the app
handled it: a flooding child costs the UI one message per frame at most. A pending ``SessionOutput`` stands
for all the output of its session since the last one was handled, and a queued one replaces an older one for
the same session. List changes coalesce the same way into one ``SessionsChanged``, which also carries waiting
changes (the app announces new waiters when it syncs the list). Exits stay individual: each deserves a notice
of its own.

**What is news** (``announce``). A session that starts waiting for input, or ends, is news; what the operator
already knows is not: sessions already waiting when the dashboard first looks (an attach), the first wait of
the demo's own sessions (the header counts them), and the keystrokes of a prompt being typed into. News that
arrives while a notice of its kind still shows is merged into that one ("3 sessions wait for input: a, b, c"),
so a burst is one line. A program that idles reading the terminal between redraws (``top``) flips in and out
of waiting every second; it is announced again only once it was seen working after someone sent it input.

**The notice line** (``notices``). Textual's toasts stack in a corner over whatever is there: the session
list's status column, the header's counts, an open dialog. Here a notice takes a row that nothing else uses
(up to three for a long one, such as a copy's file path), one at a time: the newest replaces the one shown,
and notices of one kind that arrive while it shows are merged into it. Each lives a few seconds (errors
longer). The app's ``notify`` goes through ``NoticeLine.post``, and each notice shown is also posted as a
``NoticeLine.Shown`` message, for whoever wants to hear of it.

**The header** (``header``): how many sessions run, wait, finished and failed, and what quitting does. Waiting
sessions are the ones a person should look at first, so a non-zero waiting count is coloured like their rows
and a zero one is muted. The counts are separated by ``·`` so they read apart in any copy of the screen. After
the title, a mark says when the link to the host is not live (connecting, reconnecting, gone). The right end
names the host's socket and says what quitting does: with nothing running it just quits; else it asks whether
to keep the sessions running or end them. Narrow terminals get the short forms. No clock here: a ticking clock
would make every screenshot different. Blanks never lead a run of text (an SVG renderer drops those, and the
line's parts would move in the README's screenshots): a blank before text is a span of its own, and the
padding before the right end trails the counts. With nodes, the counts cover every node's sessions, and a node
that does not answer is marked ("node b unreachable").

**Keys** (``footer``, ``help``, ``keymap``). Every binding has an id (``kill``, ``send-keys``,
``leave-type-through`` ...); a ``[dashboard.keymap]`` table in the same config file the host reads maps ids to
keys, e.g. ``kill = "ctrl+k"``. The host's loader ignores this table, so the dashboard reads it itself. A bad
table is reported and skipped: a typo in the config must not keep the dashboard from starting. Keys may be
written as they are typed: ``ctrl+]`` becomes Textual's ``ctrl+right_square_bracket``. Textual lays the footer
keys out in one row and clips what does not fit, and the app's own keys (new command, quit) come last in the
binding chain, so at 80 columns they were the ones cut off; the footer drops keys in ``DROP_ORDER`` (least
needed first) until the rest fit, and then shows ``?``. Textual's key panel lists the focused widget's
bindings first (the list's cursor keys) and leaves out the ones that only apply elsewhere: the key that leaves
type-through, the paste dialog's send key, the log view's paging. So the help dialog (``?``) lists every
dashboard key by purpose, each under the key it is bound to now (a remapped key shows as remapped: the
bindings are read through the app's keymap, as the footer reads them), then Textual's.

**Copy that tells the truth** (``clipboard``). A terminal program can only ask the terminal to set the
clipboard (OSC 52); no terminal answers, and many ignore the request. Inside tmux the request reaches the
clipboard only with ``set-clipboard on`` (the default, ``external``, drops it), which tmux can be asked about.
So every copy is also saved to a file in a private folder, and the notice says which of three things happened:
tmux took it, tmux dropped it (and how to enable it), or it was sent to the terminal, which may or may not
support it.

**Time and repaints** (``clock``, ``line``). Every time the dashboard shows goes through ``clock``: runtimes
tick and clock times change, which makes screenshots differ from run to run, so tests replace ``runtime_ms``
and ``wall_clock`` there (one place) to freeze them; the formatting helpers are pure so the list, the view and
the transcript all show times the same way. A ``Label``'s ``update`` asks for a new layout of the whole
screen, and the session's title changes at every tick (its runtime): that relayout was most of the dashboard's
idle CPU. A ``line`` has a fixed height, so a change is only a repaint of its row, and no change is nothing at
all.

**The demo** (``demo``, for ``openclaw-tui --demo``): something real to watch and rescue at once. Each example
is a real command started through the ``exec`` tool under the agent name ``demo``, exactly as an agent would
start it: a build-like log on pipes (with warnings on stderr) that runs about a minute, a ``y/N`` question and
a password prompt (``getpass``) waiting in PTYs, a Python REPL, a deploy job that fails, and a full-screen
program (``top`` when installed, else a small curses clock). The scripts are written to a folder so the
session list shows readable names (``bash build.sh``): one per user in the temporary directory
(``$TMPDIR/openclaw-tui-demo-<uid>``, where sandboxed runs can see it; the state directory is hidden from
them), written afresh by each ``--demo`` and left in place, since demo sessions kept running when the
dashboard detaches still run from it (a few small files, for the system to clean).

**Exec approvals.** The header counts the requests waiting for the operator ("2 awaiting approval", every
node's too), the notice line announces each new one, and ``a`` opens their queue (``dialogs.approval_queue``).
While it runs, the dashboard tells its host that an operator is there to answer (``operatorAttached``).
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from openclaw_tui.remote.wire import host_opener

if TYPE_CHECKING:
    from openclaw_tui.remote.mirror import HostView, RemoteHost

    from .app import DashboardApp
    from .keymap import load_keymap

__all__ = ["DashboardApp", "load_keymap", "make_app", "open_host", "run_dashboard"]


def make_app(host: HostView, demo: bool = False, *, handle_signals: bool = False,
             keymap: dict[str, str] | None = None, socket: Path | str | None = None,
             options: dict[str, Any] | None = None) -> DashboardApp:
    """The dashboard on ``host``; the caller keeps the host's lifetime (the app never closes it).

    Args:
        host: the host to show: a :class:`RemoteHost` mirror of the serving host (tests may hand in a host
            of their own process).
        demo: start the example sessions.
        handle_signals: SIGTERM/SIGHUP detach and end the app (for the real program).
        keymap: binding id -> key(s), as read by :func:`~.keymap.load_keymap`.
        socket: where the host serves (named in the header; a mirror names it itself once connected).
        options: ``figures`` and ``cpu_warn``, as read by :func:`~.keymap.load_options`.
    """
    from .app import DashboardApp

    return DashboardApp(host, demo=demo, handle_signals=handle_signals, keymap=keymap,
                        attached_to=str(socket) if socket else None, **(options or {}))


def __getattr__(name: str) -> Any:
    # imported when asked for: both bring Textual, which the dashboard loads while it looks for its host
    if name == "DashboardApp":
        from .app import DashboardApp

        return DashboardApp
    if name == "load_keymap":
        from .keymap import load_keymap

        return load_keymap
    raise AttributeError(name)


def open_host(config_path: str | None, start: bool = True) -> RemoteHost:
    """The dashboard's host: a mirror of the one serving this user's socket, connecting in the background
    (started first when none serves and ``start``). The one place the dashboard's HostView is built."""
    opener = host_opener(config_path, start)  # looking starts now, before the imports below
    from openclaw_tui.remote.mirror import RemoteHost

    return RemoteHost(opener=opener)


def run_dashboard(config_path: str | None = None, demo: bool = False, start: bool = True) -> int:
    """The dashboard until the operator quits or detaches. Nothing is waited for before the first frame:
    the host is looked for (and started) while the app starts, and the header says so until it answers."""

    async def main() -> int:
        host = open_host(config_path, start)
        if start:
            host.start()
        else:  # `attach` asks for a host that runs: say at once when none does
            try:
                await host.link.first()
            except (ConnectionError, OSError) as exc:
                print(f"openclaw-tui: {exc}", file=sys.stderr)
                return 2
        from openclaw_tui.remote.nodes import open_fleet

        from .keymap import load_keymap, load_options

        shown = open_fleet(config_path, host)  # with nodes configured: theirs beside this machine's
        app = make_app(shown, demo=demo, handle_signals=True, keymap=load_keymap(config_path),
                       options=load_options(config_path))
        try:
            await app.run_async()
        finally:
            app.disarm_watchdog()
            await shown.close()
        return app.return_code or 0

    return asyncio.run(main())

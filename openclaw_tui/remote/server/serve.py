"""``openclaw-tui serve``: the host with no UI, outliving any dashboard, until a signal ends it.

SIGTERM, SIGINT and SIGHUP end every session with proof before it exits, and SIGUSR2 re-executes it in place
(:mod:`.reexec`).
"""

from __future__ import annotations

import asyncio
import json
import signal
import sys
from collections.abc import Callable
from pathlib import Path

from openclaw_tui.core.host import FORMAT, MIN_FORMAT, SessionHost
from openclaw_tui.core.session import Event, JournalState, Snapshot
from openclaw_tui.core.version import __version__

from ..wire import socket_path
from . import reexec
from .hostserver import AlreadyServing, HostServer
from .reexec import HostFactory

SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)


async def serve(make_host: HostFactory, config_path: str | None = None, path: Path | None = None,
                ready: asyncio.Event | None = None, resume_fd: int | None = None) -> int:
    """Serve until a signal ends it. ``make_host`` builds the host (the command line hands in the
    product's ``ToolHost``, with the terminal engine and the nodes, which sit above this package)."""
    opened = await _open(make_host, config_path, path, resume_fd)
    if isinstance(opened, int):
        return opened
    host, server, pending, was = opened
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    again = reexec.Reexec(host, server, config_path)
    server.reexec = again.request

    def on_signal(sig: int) -> None:
        if again.handing_over:  # the host is re-executing itself: its next image acts on it
            again.deferred.append(sig)
            return
        if stop.is_set():
            host.force_kill()
        stop.set()

    for sig in SIGNALS:
        loop.add_signal_handler(sig, on_signal, sig)
    loop.add_signal_handler(signal.SIGUSR2, again.on_signal)
    reexec.replay(pending)
    host.start()
    _say_serving(host, server.path, was)
    report = loop.create_task(_report_start(host))
    unsubscribe = host.subscribe(_journal_reporter())
    if ready is not None:
        ready.set()
    try:
        await stop.wait()
    finally:
        unsubscribe()
        report.cancel()
        await server.close()
        await host.close()
        for sig in (*SIGNALS, signal.SIGUSR2):
            loop.remove_signal_handler(sig)
    return 0


async def _open(make_host: HostFactory, config_path: str | None, path: Path | None,
                resume_fd: int | None) -> int | tuple[SessionHost, HostServer, list[int], str | None]:
    """The host serving the socket: a new one, or (``resume_fd``) the one a re-exec handed over, with the
    signals it kept for this image and the version it ran before; or the exit status when it cannot serve."""
    if resume_fd is None:
        host = make_host(config_path=config_path)
        host.start()
        server = HostServer(host, path or socket_path())
        try:
            await server.start()
        except AlreadyServing as exc:
            return await _refuse(host, exc, 1)
        except OSError as exc:  # the socket's directory or path cannot be used; SocketPathError says why
            return await _refuse(host, exc, 2)
        return host, server, [], None
    try:
        state = reexec.read_state(resume_fd)
        host, server = await reexec.resume(state, make_host)
    except Exception as exc:  # noqa: BLE001 - whatever stops the new image, it must not run on half-resumed
        reexec.cannot_resume(exc)
    return host, server, state.get("signals", []), state.get("version", "?")


def _say_serving(host: SessionHost, path: Path, was: str | None) -> None:
    """The first line: where the host serves and how gateway sessions are contained; after a re-exec
    (``was``: the version before it), what it kept."""
    containment = host.supervisor.containment
    if was is None:
        print(f"openclaw-tui host serving on {path} (gateway sessions: {containment.kind}, {containment.reason})",
              flush=True)
        return
    running = sum(s.running for s in host.sessions())
    print(f"openclaw-tui host resumed on {path} after re-exec {host.generation} (version {was} "
          f"before, {__version__} now; {len(host.sessions())} sessions kept, {running} running; "
          f"gateway sessions: {containment.kind})", flush=True)


async def _report_start(host: SessionHost) -> None:
    """What the start-up sweep ended, one line per dead host it found, then what the journal gave back."""
    if host.swept is not None:
        try:
            reports = await asyncio.shield(host.swept)
        except Exception as exc:  # the sweep must never take the host down; say so instead
            print(f"openclaw-tui: the sweep of dead hosts' sessions failed: {exc}", flush=True)
            reports = []
        for found in reports:
            print(f"openclaw-tui: {found.describe()}", flush=True)
    if host.restored is not None:
        line = (await asyncio.shield(host.restored)).describe()
        if line:
            print(f"openclaw-tui: {line}", flush=True)


def _journal_reporter() -> Callable[[Event], None]:
    """A listener printing each new journal problem on stderr, once."""
    said: set[str] = set()

    def on_event(event: Event) -> None:
        payload = event.payload
        state = payload.journal if isinstance(payload, Snapshot) else payload
        if not isinstance(state, JournalState):
            return
        problem = state.problem
        if problem and problem not in said:
            said.add(problem)
            lead = "" if state.saving else "sessions are not being saved to disk: "
            print(f"openclaw-tui: {lead}{problem}", file=sys.stderr, flush=True)

    return on_event


async def _refuse(host: SessionHost, exc: Exception, status: int) -> int:
    """Not serving: one line saying why, not a traceback, and the host (no sessions yet) closed."""
    print(f"openclaw-tui: {exc}", file=sys.stderr)
    await host.close()
    return status


def check_resume(state_format: str) -> int:
    """``serve --check-resume FORMAT``, a re-exec's preflight, run by the code installed now: this module
    imported, so is everything resuming needs; says whether that code reads a state of that format."""
    if not state_format.isdigit() or not MIN_FORMAT <= int(state_format) <= FORMAT:
        print(f"openclaw-tui {__version__} reads handover states of format {MIN_FORMAT} to {FORMAT}, not "
              f"{state_format}", file=sys.stderr)
        return 1
    print(json.dumps({"version": __version__, "formats": [MIN_FORMAT, FORMAT]}))
    return 0


def run_serve(make_host: HostFactory, config_path: str | None = None, resume_fd: int | None = None) -> int:
    return asyncio.run(serve(make_host, config_path, resume_fd=resume_fd))

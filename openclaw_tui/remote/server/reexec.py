"""``serve`` re-executing itself in place: an upgrade or restart that ends no session (``serve --reexec``,
SIGUSR2).

A preflight refuses code that cannot take over while nothing has been touched; then the socket stays bound
while the process execs itself, still the parent of every child.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

from openclaw_tui.core.host import FORMAT, CannotResume, SessionHost, check_format, settings_from_json
from openclaw_tui.core.procs import proctable
from openclaw_tui.core.version import __version__

from ..wire import protocol as p
from .hostserver import HostServer

HostFactory = Callable[..., SessionHost]
"""Builds a host from ``config_path=`` or ``settings=``: the product's ``ToolHost``, which the command
line hands in (it brings the terminal engine and the nodes, from above this package)."""

RESUME_FLAG = "--resume"
CHECK_FLAG = "--check-resume"
HELD = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGUSR2)  # blocked across the exec
PREFLIGHT_S = 60.0
CANNOT_RESUME = 70  # EX_SOFTWARE: the new image exits with it when it cannot take over


class ReexecRefused(p.RemoteError):
    """The host will not re-exec now; the message says why."""

    def __init__(self, message: str) -> None:
        super().__init__(p.REFUSED, message)


class Reexec:
    """The ``serve`` side: checks, hands over and execs (``config_path`` goes on to the new image)."""

    def __init__(self, host: SessionHost, server: HostServer, config_path: str | None) -> None:
        self.host = host
        self.server = server
        self.config_path = config_path
        self.busy = False
        self.handing_over = False
        self.deferred: list[int] = []
        """Signals that came during the handover: the next image (or this one, if the exec fails) gets them."""

    async def request(self) -> dict[str, Any]:
        """Check the installed code, then start the handover; returns what ``host.reexec`` answers."""
        if self.host.closed:
            raise ReexecRefused("the host is shutting down")
        if self.busy:
            raise ReexecRefused("a re-exec of this host is already under way")
        self.busy = True
        try:
            problem = await preflight()
            if problem is not None:
                raise ReexecRefused(f"the code installed now cannot take over this host, so it stays as it is: {problem}")
            # the sweep of dead hosts and the journal's read-back run in threads the exec would cut short
            await asyncio.gather(*(t for t in (self.host.swept, self.host.restored) if t is not None),
                                 return_exceptions=True)
        except BaseException:
            self.busy = False
            raise
        asyncio.get_running_loop().create_task(self._hand_over())  # once the answer is out
        return {"pid": os.getpid(), "version": __version__, "generation": self.host.generation,
                "sessions": len(self.host.sessions())}

    def on_signal(self) -> None:
        """SIGUSR2: the same re-exec, for service managers; the outcome goes to the host's output."""
        async def run() -> None:
            try:
                await self.request()
            except ReexecRefused as exc:
                print(f"openclaw-tui: SIGUSR2: {exc}", flush=True)

        asyncio.get_running_loop().create_task(run())

    async def _hand_over(self) -> None:
        if self.host.closed:  # a signal ended the host while its code was being checked
            self.busy = False
            return
        self.handing_over = True
        signal.pthread_sigmask(signal.SIG_BLOCK, HELD)  # kept pending across the exec, for the next image
        handed = await self.server.hand_over()
        found, memfd = None, -1
        try:
            found = self.host.handover()
            memfd = _write_state({**found.state, "version": __version__, "server": handed,
                                  "signals": self.deferred})
            keep = found.fds | {handed["listen"], handed["lock"], memfd}
            for fd in keep:
                os.set_inheritable(fd, True)
            assert threading.current_thread() is threading.main_thread(), "children die with the thread that forked them"
            sys.stdout.flush()
            sys.stderr.flush()
            os.execv(sys.executable, resume_argv(self.config_path, memfd))
        except Exception as exc:  # the exec did not happen: this image goes on as it was
            if memfd >= 0:
                os.close(memfd)
            self.host.release_handover(found)
            await self.server.adopt(handed)
            self.busy = self.handing_over = False
            print(f"openclaw-tui: the re-exec failed ({type(exc).__name__}: {exc}); this host goes on as it was",
                  flush=True)
            replay(self.deferred)
            self.deferred = []


def resume_argv(config_path: str | None, fd: int) -> list[str]:
    """The next image's command line: this interpreter with the options it was started with (``-X``, ``-W``,
    ``-I``...), then ``-m openclaw_tui [--config FILE] serve --resume FD``."""
    config = ["--config", config_path] if config_path else []
    return [sys.executable, *interpreter_options(sys.orig_argv), "-m", "openclaw_tui", *config, "serve", RESUME_FLAG,
            str(fd)]


def interpreter_options(argv: list[str]) -> list[str]:
    """The interpreter's own options at the start of ``argv`` (up to ``-m``, ``-c`` or the script)."""
    options, rest = [], argv[1:]
    while rest and rest[0].startswith("-") and rest[0] not in ("-", "-m", "-c"):
        takes_value = rest[0] in ("-X", "-W", "--check-hash-based-pycs")
        options += rest[: 2 if takes_value else 1]
        rest = rest[2 if takes_value else 1:]
    return options


def _write_state(state: dict[str, Any]) -> int:
    """The state in a memory file (nothing on disk to leave behind), read from the start by the new image."""
    data = json.dumps(state, separators=(",", ":")).encode()
    fd = os.memfd_create("openclaw-tui-handover", 0)
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


async def preflight() -> str | None:
    """Whether the code installed now can resume this host: None, or what went wrong, in one line."""
    try:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "openclaw_tui", "serve", CHECK_FLAG, str(FORMAT),
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    except OSError as exc:
        return f"cannot run {sys.executable}: {exc}"
    try:
        out, err = await asyncio.wait_for(proc.communicate(), PREFLIGHT_S)
    except TimeoutError:
        proc.kill()
        await proc.wait()
        return f"its check did not answer within {PREFLIGHT_S:.0f} s"
    if proc.returncode == 0:
        return None
    lines = (err or out).decode(errors="replace").strip().splitlines()
    return lines[-1] if lines else f"its check exited with status {proc.returncode}"


# -- the new image ------------------------------------------------------------------------------------
def read_state(fd: int) -> dict[str, Any]:
    """The state the previous image wrote into memory file ``fd`` (closed here); raises CannotResume."""
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        with open(fd, "rb") as fh:
            state = json.loads(fh.read())
    except (OSError, ValueError) as exc:
        raise CannotResume(f"cannot read the handover state from fd {fd}: {exc}") from exc
    return check_format(state)


async def resume(state: dict[str, Any], make_host: HostFactory) -> tuple[SessionHost, HostServer]:
    """The host and server the previous image handed over, serving again."""
    host = make_host(settings=settings_from_json(state["settings"]))
    host.resume(state)
    server = HostServer(host, Path(state["server"]["path"]))
    await server.adopt(state["server"])
    host.persist(server.path)  # the socket's journal again: its sessions are here already and are recorded on
    reap_strays(host)
    return host, server


def reap_strays(host: SessionHost) -> None:
    """Reap, as they exit, the children the previous image started that are no session's leader nor the
    watchdog (a login-shell probe, an ssh to a node): nothing else in this process waits for them."""
    dog = host.supervisor.containment.watchdog
    known = {s.pid for s in host.sessions() if s.running} | ({dog.pid} if dog is not None else set())
    loop = asyncio.get_running_loop()
    for pid in set(proctable.children_of(os.getpid())) - known:
        try:
            fd = os.pidfd_open(pid)
        except OSError:
            continue

        def reap(fd: int = fd, pid: int = pid) -> None:
            loop.remove_reader(fd)
            os.close(fd)
            try:
                os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                pass

        loop.add_reader(fd, reap)


def replay(signals: list[int]) -> None:
    """Deliver what arrived during a handover, now that this image handles it: the signals the kernel kept
    pending (unblocked here), and those an asyncio handler had already taken (raised again)."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, HELD)
    for sig in signals:
        signal.raise_signal(sig)


def cannot_resume(exc: BaseException) -> NoReturn:
    """The new image cannot take over: say why and end now, as a host dying (see the package docstring)."""
    print(f"openclaw-tui: this host re-executed itself but cannot resume ({type(exc).__name__}: {exc}); it ends "
          "now, and its sessions end with it (the watchdog ends what is left; the next host reports them)",
          file=sys.stderr, flush=True)
    sys.stdout.flush()
    os._exit(CANNOT_RESUME)

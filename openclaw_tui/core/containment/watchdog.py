"""The watchdog: a tiny process that ends a host's sessions the moment the host dies, however it dies.

End of file on its stdin, a pipe from the host, means the host is gone. Run as a script, it loads
``leftovers`` by path, so it starts in milliseconds.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from typing import Any

WAIT_S = 10.0  # at host close: how long the watchdog may take to look and exit


class Watchdog:
    """The host's side: the running watchdog and the write end of its pipe."""

    def __init__(self, host_id: str, cgroup: str | None, record: str, grace_s: float) -> None:
        spec = json.dumps({"id": host_id, "cgroup": cgroup, "record": record, "grace": grace_s,
                           "host": os.getpid()})
        read_end, self._fd = os.pipe()
        try:
            self._proc: subprocess.Popen[bytes] | None = subprocess.Popen(
                [sys.executable, "-I", "-S", os.path.abspath(__file__), spec],
                stdin=read_end, stdout=subprocess.DEVNULL, close_fds=True, start_new_session=True,
            )
        except BaseException:
            os.close(self._fd)
            raise
        finally:
            os.close(read_end)
        self.pid = self._proc.pid

    def keep_across_exec(self) -> int:
        """Let the write end survive an ``exec`` of the host in place; returns its fd number."""
        os.set_inheritable(self._fd, True)
        return self._fd

    @classmethod
    def adopt(cls, pid: int, fd: int) -> Watchdog:
        """The watchdog the previous image of this host started, watching the pipe whose write end ``fd``
        survived the exec (:meth:`keep_across_exec`); it is still this process's child."""
        dog = cls.__new__(cls)
        dog.pid, dog._fd, dog._proc = pid, fd, None
        os.set_inheritable(fd, False)  # kept across that exec only: no session inherits it
        return dog

    async def close(self) -> None:
        """The host is shutting down (its sessions already ended): let the watchdog look once and exit."""
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1
        if self._proc is None:  # adopted: no Popen to wait with
            if not await asyncio.to_thread(_reaped, self.pid, WAIT_S):
                os.kill(self.pid, signal.SIGKILL)
                await asyncio.to_thread(_reaped, self.pid, WAIT_S)
            return
        try:
            await asyncio.to_thread(self._proc.wait, WAIT_S)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            await asyncio.to_thread(self._proc.wait)


def _reaped(pid: int, seconds: float) -> bool:
    """Wait (blocking) up to ``seconds`` for child ``pid`` to exit, and reap it."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            if os.waitpid(pid, os.WNOHANG)[0]:
                return True
        except ChildProcessError:
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.02)


# -- the watchdog process ----------------------------------------------------------------------------
def _load_leftovers() -> Any:
    import importlib
    import types

    package = types.ModuleType("_openclaw_watchdog")  # the core, under a name of its own
    package.__path__ = [os.path.dirname(os.path.dirname(os.path.abspath(__file__)))]
    sys.modules[package.__name__] = package
    return importlib.import_module(package.__name__ + ".containment.leftovers")


def _read_record(path: str) -> dict[str, Any] | None:
    try:
        with open(path, encoding="utf-8") as fh:
            record = json.load(fh)
    except (OSError, ValueError):
        return None
    return record if isinstance(record, dict) else None


def _note(path: str, ended: list[tuple[int, str]]) -> None:
    """Add what was ended to the host's record (only if it still exists: a closing host removes it)."""
    record = _read_record(path)
    if record is None:
        return
    record["watchdogEnded"] = [[pid, cmd] for pid, cmd in ended]
    tmp = path + ".watchdog"
    try:
        with open(tmp, "w", encoding="utf-8") as fh:
            json.dump(record, fh)
        os.replace(tmp, path)
    except OSError:
        pass


def main(argv: list[str]) -> int:
    for sig in (signal.SIGINT, signal.SIGHUP, signal.SIGPIPE):
        signal.signal(sig, signal.SIG_IGN)
    spec = json.loads(argv[1])
    leftovers = _load_leftovers()
    while True:
        try:
            if not os.read(0, 4096):
                break
        except InterruptedError:
            continue
        except OSError:
            break
    record = _read_record(spec["record"]) or {"id": spec["id"], "cgroup": spec["cgroup"], "sessions": {}}
    ended, left = leftovers.end_host(record, float(spec["grace"]))
    if ended:
        _note(spec["record"], ended)
        shown = ", ".join(f"{pid} ({cmd[:40]})" for pid, cmd in ended[:5])
        print(f"openclaw-tui watchdog: host pid {spec['host']} is gone; ended {len(ended)} of its session "
              f"processes: {shown}" + (f"; still running: {left}" if left else ""), file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

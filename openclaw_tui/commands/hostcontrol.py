"""``openclaw-tui --version`` and ``openclaw-tui serve --reexec``: which code runs, and moving the host onto
new code.
"""

from __future__ import annotations

import sys
import time

from openclaw_tui.core.session import Status
from openclaw_tui.core.version import __version__
from openclaw_tui.remote.wire import find_host, oneshot, protocol as p, socket_path

CLIENT = "openclaw-tui"


def run_version() -> int:
    path = find_host() or socket_path()
    print(f"openclaw-tui {__version__} (this command)")
    try:
        hello = oneshot.hello(path, f"{CLIENT} --version", 5.0)
    except (oneshot.HostUnreachable, p.RemoteError):
        print(f"serving: no host on {path}")
        return 0
    again = f", re-executed {hello['generation']} time{'s' if hello['generation'] != 1 else ''}" \
        if hello.get("generation") else ""
    print(f"serving: openclaw-tui {hello.get('version', '?')} (pid {hello.get('pid', '?')}{again}) on {path}")
    return 0


def run_reexec() -> int:
    path = find_host() or socket_path()
    try:  # the answer comes first, then the host drops the connection as its handover begins
        before, answer = oneshot.exchange(path, [("hello", {"client": f"{CLIENT} serve --reexec"}),
                                                 ("host.reexec", {})], timeout=None, until_closed=True)
    except oneshot.HostUnreachable as exc:
        return _fail(f"{exc}; nothing to re-execute")
    except p.RemoteError as exc:
        if exc.code == p.METHOD_NOT_FOUND:
            return _fail("the running host is older than this command and cannot re-execute itself; restart it "
                         "(its sessions end) to move it onto this version")
        return _fail(str(exc))
    asked = time.monotonic()
    back = oneshot.same_host(path, before, f"{CLIENT} serve --reexec")
    if back is None:
        return _fail(f"the host (pid {answer['pid']}) did not come back after re-executing itself: it could not "
                     "resume and ended, and its sessions with it (its output says why; the next host reports "
                     "what was left)")
    if back.get("generation", 0) <= before.get("generation", 0):
        return _fail(f"the host (pid {answer['pid']}) could not re-execute itself and goes on as it was, with its "
                     "sessions, on the code it ran (its output says why)")
    took = (time.monotonic() - asked) * 1000
    try:
        (listed,) = oneshot.exchange(path, [("call", {"call": {"tool": "process", "action": "list"}, "agent": None})],
                                     timeout=30)
        sessions = listed["details"]["sessions"]
        kept = f"{len(sessions)} sessions kept ({sum(s['status'] == Status.RUNNING for s in sessions)} running)"
    except (oneshot.HostUnreachable, p.RemoteError, KeyError, TypeError):
        kept = "its sessions could not be listed"
    print(f"openclaw-tui: host pid {back['pid']} re-executed in place in {took:.0f} ms: version {before['version']} "
          f"-> {back['version']}; {kept}")
    return 0


def _fail(message: str) -> int:
    print(f"openclaw-tui: {' '.join(message.split())}", file=sys.stderr)
    return 1

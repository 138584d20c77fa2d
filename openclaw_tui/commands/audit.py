"""``openclaw-tui audit [--since 1h] [--agent A] [--session ID] [--json]``: who started, typed, resized,
approved, killed or removed what, and how each session ended, across every session the journal holds.

It reads the journal of the host serving this user's socket straight from the state directory (never through
the host, never taking its lock), so it works with the host running, stopped, or dead after a crash.
"""

from __future__ import annotations

import json
import os
import sys
import time


def run_audit(config: str | None, since: str | None, agent: str | None, session: str | None, as_json: bool) -> int:
    from openclaw_tui.core.config import load_settings
    from openclaw_tui.core.journal import journal_name, read_acts
    from openclaw_tui.core.procs import MARKER
    from openclaw_tui.core.session import local_time, when_ms
    from openclaw_tui.remote.wire import find_host, socket_path

    if os.environ.get(MARKER):  # what agents did is the operator's to read, as every act on the command line
        print("openclaw-tui audit: refused (caller-confined): this shell runs inside a session; the audit is the "
              "operator's", file=sys.stderr)
        return 1
    try:
        after = None if since is None else when_ms(since)
    except ValueError as exc:
        print(f"openclaw-tui: --since {exc}", file=sys.stderr)
        return 2
    try:
        settings = load_settings(config)
    except (OSError, ValueError) as exc:
        print(f"openclaw-tui: config: {exc}", file=sys.stderr)
        return 2
    root = os.path.join(settings.state_dir, "journal", journal_name(find_host() or socket_path()))
    try:
        acts = read_acts(root, after, agent, session)
    except OSError as exc:
        print(f"openclaw-tui: cannot read the journal in {root}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    if as_json:
        print(json.dumps([a.to_json() for a in acts], ensure_ascii=False, indent=1))
        return 0
    if not acts:
        print(f"no acts recorded{' since ' + since if since else ''} (journal: {root})", file=sys.stderr)
        return 0
    day = None
    for a in acts:
        date = _date(a.at)
        if date != day:
            print(f"-- {date}")
            day = date
        print(f"{local_time(a.at)}  {a.act:<18} {a.actor:<12} {a.session_id or '-':<20} {a.detail}"
              f"{'  [' + a.node + ']' if a.node else ''}")
    return 0


def _date(ms: int) -> str:
    return time.strftime("%Y-%m-%d", time.localtime(ms / 1000))

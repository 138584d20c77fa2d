"""Recordings of real PTY programs with known timing (pauses, a resize, a password prompt): exported through
the process tool, parsed, and played back with ``asciinema cat`` in tmux, the reference terminal, whose
screen must be the session's own ``process screen``."""

from __future__ import annotations

import json
import re
import stat
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from ..support.hosts import make_host
from ..support.tmuxreplay import Pane, TmuxReplay, play_casts
from ..support.waiting import wait_for

PROGRAM = ("printf 'one\\n'; sleep 0.3; printf '\\033[31mtwo\\033[0m\\n'; sleep 0.3; printf 'three\\n'; "
           "printf 'size? '; read x; printf 'wide %s\\n' \"$x\"; stty -echo; printf 'password: '; read pw; "
           "stty echo; echo; echo done")
SCREEN_LINE = re.compile(r"\[screen (\d+)x(\d+), .*?(?:cursor at row (\d+), column (\d+)|cursor hidden)\]$")
SLACK_S = 0.05  # the recorded gap against the program's own sleep


def events(text: str) -> tuple[dict[str, Any], list[list[Any]]]:
    lines = text.splitlines()
    return json.loads(lines[0]), [json.loads(line) for line in lines[1:]]


def iso(ms: float) -> str:
    return datetime.fromtimestamp(ms / 1000, tz=timezone.utc).isoformat()


def first(evs: list[list[Any]], code: str, text: str) -> list[Any]:
    return next(e for e in evs if e[1] == code and text in e[2])


async def export(host: Any, sid: str, **params: Any) -> tuple[dict[str, Any], str]:
    r = await host.call({"tool": "process", "action": "export", "sessionId": sid, **params}, agent="main")
    assert r["details"]["status"] == "completed", r
    return r["details"], Path(r["details"]["path"]).read_text(encoding="utf-8")


def played(tmux: TmuxReplay, cast: str, folder: Path) -> Pane:
    """The pane after ``asciinema cat`` of the recording, split at its resizes (which cat does not apply)."""
    header, evs = events(cast)
    parts: list[tuple[Path, tuple[int, int] | None]] = []
    chunk: list[list[Any]] = []
    for ev in [*evs, None]:
        if ev is None or ev[1] == "r":
            path = folder / f"part{len(parts)}.cast"
            path.write_text("\n".join(json.dumps(x) for x in [header, *chunk]) + "\n", encoding="utf-8")
            size = tuple(int(v) for v in ev[2].split("x")) if ev is not None else None
            parts.append((path, size))  # type: ignore[arg-type]
            chunk = []
        else:
            chunk.append(ev)
    return play_casts(tmux, parts, (header["width"], header["height"]))


def screen_of(text: str) -> tuple[list[str], tuple[int, int], tuple[int, int] | None]:
    """``process screen``'s rows, size and cursor (column, row from 0)."""
    lines = text.split("\n")
    at = next(i for i, line in enumerate(lines) if SCREEN_LINE.match(line))  # then the status line
    rows, m = lines[:at], SCREEN_LINE.match(lines[at])
    assert m
    cursor = (int(m[4]) - 1, int(m[3]) - 1) if m[3] else None
    return rows, (int(m[1]), int(m[2])), cursor


def trimmed(rows: list[str]) -> list[str]:
    rows = [r.rstrip() for r in rows]
    while rows and not rows[-1]:
        rows.pop()
    return rows


@pytest.fixture
async def recorded() -> Any:
    """A finished PTY session of :data:`PROGRAM`, resized at its ``size?`` prompt, with a password typed."""
    async with make_host() as host:
        r = await host.call({"tool": "exec", "command": PROGRAM, "pty": True, "background": True}, agent="main")
        sid = r["details"]["sessionId"]
        session = host.session(sid)
        await wait_for(lambda: "size? " in session.output.full_text(), what="the size prompt")
        session.resize(80, 20, "operator")
        session.send(b"ok\r", "main", "write")
        await wait_for(lambda: "password: " in session.output.full_text(), what="the password prompt")
        await wait_for(lambda: session.waiting_reason is not None or session.idle_ms() > 300, what="a reader")
        session.send(b"hunter2\r", "operator", "type")
        await wait_for(session.done.is_set, what="the end")
        yield host, sid


async def test_a_recording_has_the_header_the_times_the_resize_and_masked_input(recorded: Any) -> None:
    host, sid = recorded
    details, cast = await export(host, sid, format="cast", inputs=True)
    header, evs = events(cast)
    assert (header["version"], header["width"], header["height"]) == (2, 120, 30)
    assert header["title"] == PROGRAM and header["env"] == {"TERM": "xterm-256color"}
    assert abs(header["timestamp"] - host.session(sid).started_ms / 1000) <= 1
    times = [e[0] for e in evs]
    assert times == sorted(times) and times[0] >= 0
    one, two, three = first(evs, "o", "one"), first(evs, "o", "two"), first(evs, "o", "three")
    assert abs(two[0] - one[0] - 0.3) <= SLACK_S and abs(three[0] - two[0] - 0.3) <= SLACK_S
    resize = first(evs, "r", "")
    assert resize[2] == "80x20" and first(evs, "o", "size?")[0] <= resize[0] <= first(evs, "o", "wide ok")[0]
    inputs = [e[2] for e in evs if e[1] == "i"]
    assert inputs == ["ok\r", "•••"], inputs
    assert "hunter2" not in cast
    assert details["format"] == "cast" and details["bytes"] == len(cast.encode())
    path = Path(details["path"])
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert path.name.startswith(sid) and path.parent.parent == Path(host.supervisor.settings.state_dir)


async def test_played_back_in_tmux_a_recording_shows_the_sessions_screen(recorded: Any, tmux: TmuxReplay,
                                                                          tmp_path: Path) -> None:
    host, sid = recorded
    _, cast = await export(host, sid)
    pane = played(tmux, cast, tmp_path)
    screen = await host.call({"tool": "process", "action": "screen", "sessionId": sid}, agent="main")
    rows, size, cursor = screen_of(screen["text"])
    assert pane.size == size == (80, 20)
    assert trimmed(pane.rows) == trimmed(rows)
    assert cursor is None or pane.cursor == cursor
    assert any("\x1b[31m" in row and "two" in row for row in pane.styled), pane.styled  # the colour too


async def test_a_recording_cut_by_since_starts_with_the_screen_at_the_cut(recorded: Any, tmux: TmuxReplay,
                                                                           tmp_path: Path) -> None:
    host, sid = recorded
    _, whole = await export(host, sid)
    started = events(whole)[0]["timestamp"] * 1000
    session = host.session(sid)
    resize_ms = next(m.at for m in session.raw.marks_from(0) if (m.cols, m.rows) == (80, 20))
    _, cast = await export(host, sid, since=iso(resize_ms + 1))  # after the resize, before the password
    header, evs = events(cast)
    assert (header["width"], header["height"]) == (80, 20)
    assert evs[0][0] == 0 and "\x1b[2J" in evs[0][2] and "three" in evs[0][2]  # the screen drawn at once
    assert not any("one\r\n" == e[2] for e in evs[1:])
    pane = played(tmux, cast, tmp_path)
    screen = await host.call({"tool": "process", "action": "screen", "sessionId": sid}, agent="main")
    rows, _, _ = screen_of(screen["text"])
    assert trimmed(pane.rows) == trimmed(rows)
    assert header["timestamp"] >= started // 1000


async def test_until_ends_the_recording_where_it_says_and_idle_limit_caps_the_pauses(recorded: Any,
                                                                                      tmux: TmuxReplay,
                                                                                      tmp_path: Path) -> None:
    host, sid = recorded
    _, whole = await export(host, sid)
    header, evs = events(whole)
    two_at = header["timestamp"] * 1000  # a whole second: the exact origin is the session's start
    origin = host.session(sid).started_ms
    two_ms = origin + first(evs, "o", "two")[0] * 1000
    _, cut = await export(host, sid, until=iso(two_ms + 100))
    _, cut_evs = events(cut)
    assert any("two" in e[2] for e in cut_evs) and not any("three" in e[2] for e in cut_evs)
    assert trimmed(played(tmux, cut, tmp_path).rows) == ["one", "two"]
    capped_header, capped = events((await export(host, sid, idleLimit=0.1))[1])
    gaps = [b[0] - a[0] for a, b in zip(capped, capped[1:])]
    assert capped_header["idle_time_limit"] == 0.1 and max(gaps) <= 0.1 + 1e-6
    assert two_at <= origin


async def test_a_pipe_session_exports_as_text_with_a_local_time_on_each_line() -> None:
    async with make_host() as host:
        r = await host.call({"tool": "exec", "command": "echo alpha; sleep 0.3; echo beta", "background": True},
                            agent="main")
        sid = r["details"]["sessionId"]
        await wait_for(host.session(sid).done.is_set, what="the end")
        refused = await host.call({"tool": "process", "action": "export", "sessionId": sid, "format": "cast"},
                                  agent="main")
        assert refused["details"]["status"] == "failed" and '"text"' in refused["text"]
        details, text = await export(host, sid)
        assert details["format"] == "text" and details["path"].endswith(".txt")
        lines = text.splitlines()
        assert [re.sub(r"^\d\d:\d\d:\d\d\.\d{3}  ", "", line) for line in lines] == ["alpha", "beta"], lines
        stamps = [datetime.strptime(line[:12], "%H:%M:%S.%f") for line in lines]
        assert abs((stamps[1] - stamps[0]).total_seconds() - 0.3) <= SLACK_S
        want = datetime.fromtimestamp(host.session(sid).raw.times_from(0)[0].at / 1000).strftime("%H:%M:%S")
        assert lines[0].startswith(want)  # local time


@pytest.mark.parametrize(("params", "words"), [
    ({"since": "yesterday-ish"}, "since takes a span"),
    ({"since": "1m", "until": "2m"}, "until is before since"),
    ({"idleLimit": -1}, "idleLimit"),
    ({"format": "gif"}, "format"),
])
async def test_a_bad_export_fails_naming_the_problem_and_writes_nothing(params: dict[str, Any], words: str) -> None:
    async with make_host() as host:
        r = await host.call({"tool": "exec", "command": "echo hi", "pty": True, "background": True}, agent="main")
        sid = r["details"]["sessionId"]
        exports = Path(host.supervisor.settings.state_dir, "exports")
        res = await host.call({"tool": "process", "action": "export", "sessionId": sid, **params}, agent="main")
        assert res["details"]["status"] == "failed" and words in res["text"], res
        assert not exports.exists() or not any(p.name.startswith(sid) for p in exports.iterdir())
        other = await host.call({"tool": "process", "action": "export", "sessionId": sid}, agent="someone-else")
        assert other["details"]["status"] == "failed" and "no session" in other["text"]

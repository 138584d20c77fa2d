"""A PTY program learns its terminal's size from the terminal, not from ``COLUMNS``/``LINES``.

ncurses trusts those variables over the real size, so a program given them never learns of a resize; no
terminal exports them. They reach a program only when the caller's ``env`` sets them.
"""

from __future__ import annotations

import os

PROBE = "echo cols=${COLUMNS-unset} lines=${LINES-unset}; stty size"


async def test_a_pty_program_gets_no_columns_or_lines_and_sees_its_real_size(host, monkeypatch) -> None:
    monkeypatch.setitem(os.environ, "COLUMNS", "33")  # as if the host itself had been started with them
    monkeypatch.setitem(os.environ, "LINES", "11")
    r = await host.call({"tool": "exec", "command": PROBE, "pty": True, "workdir": "/tmp"})
    assert "cols=unset lines=unset" in r["text"]
    assert "30 120" in r["text"]


async def test_the_callers_env_may_still_set_them(host) -> None:
    r = await host.call({"tool": "exec", "command": PROBE, "pty": True, "workdir": "/tmp",
                         "env": {"COLUMNS": "99", "LINES": "9"}})
    assert "cols=99 lines=9" in r["text"]


async def test_a_resize_reaches_the_program(host) -> None:
    r = await host.call({"tool": "exec", "command": "read x; stty size", "pty": True, "background": True,
                         "workdir": "/tmp"})
    session = host.session(r["details"]["sessionId"])
    session.resize(77, 21)
    assert session.pty_size == (77, 21) and session.details()["ptySize"] == {"cols": 77, "rows": 21}
    await host.call({"tool": "process", "action": "submit", "sessionId": session.id})
    await session.done.wait()
    assert "21 77" in session.output.full_text()

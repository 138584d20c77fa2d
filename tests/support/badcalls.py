"""Generated tool calls, good and bad, for the property tests: each bad one knows it is bad.

A call starts from a valid base and then gets zero or more corruptions, each of which certainly makes
it invalid (a lone surrogate, a wrong type, a negative timeout, an unknown parameter, nesting too deep,
a command over the kernel's limit…), so a test can require a failed result naming a reason for every
corrupted call without second-guessing the host. Exec commands come only from a harmless vocabulary
(``true``, ``echo …``): generated calls never run anything else on the machine running the tests.
"""

from __future__ import annotations

import asyncio
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from openclaw_tui.remote.wire.protocol import encode

HANG_S = 30.0  # a call that takes longer than this counts as a hang

HARMLESS = [
    "true",
    ":",
    "echo hi",
    "echo 'a b' \"c d\"",
    "printf %s ok",
    "echo OPENAI_API_KEY=sk-test",
    "echo é ✓",
]
KEY_TOKENS = [
    "Enter",
    "C-c",
    "C-d",
    "Up",
    "Tab",
    "F5",
    "M-x",
    "^D",
    "Escape",
    "BSpace",
    "KP5",
    "S-Tab",
    "hello",
    "a b",
    "",
    "C-",
    "Entr",
]
ENV_KEYS = ["FOO", "BAR_1", "LANG", "HOME", "TERM", "PATH", "LD_PRELOAD", "BASH_ENV", "CLASSPATH", "lower"]
# Strings agents should never send, and some they might: surrogates, NUL, controls, huge, non-BMP.
odd_text = st.one_of(
    st.text(max_size=40),
    st.text(alphabet=st.characters(blacklist_categories=()), max_size=40),  # includes lone surrogates
    st.sampled_from(["\udc80", "a\ud800b", "\0", "\x1b[31m", "\r\n", "💥", " ", "x" * 5000]),
)
json_scalar = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=20),
)
json_value = st.recursive(
    json_scalar,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
SURROGATE = "\udc80"


def deep(levels: int) -> Any:
    value: Any = "x"
    for _ in range(levels):
        value = [value]
    return value


EXEC_CORRUPTIONS: dict[str, Any] = {
    "unknown parameter": lambda c: {**c, "bogus": 1},
    "command not a string": lambda c: {**c, "command": 5},
    "command missing": lambda c: {k: v for k, v in c.items() if k != "command"},
    "blank command": lambda c: {**c, "command": "   "},
    "NUL in command": lambda c: {**c, "command": "echo a\0b"},
    "surrogate in command": lambda c: {**c, "command": "echo " + SURROGATE},
    "command over MAX_ARG_STRLEN": lambda c: {**c, "command": "echo " + "a" * 140_000},
    "yieldMs not a number": lambda c: {**c, "yieldMs": "soon"},
    "negative timeout": lambda c: {**c, "timeout": -1},
    "timeout and its alias": lambda c: {**c, "timeout": 5, "timeoutSeconds": 5},
    "background not a bool": lambda c: {**c, "background": [1]},
    "env not an object": lambda c: {**c, "env": ["FOO=1"]},
    "env value not scalar": lambda c: {**c, "env": {"FOO": [1]}},
    "surrogate env key": lambda c: {**c, "env": {SURROGATE: "1"}},
    "surrogate env value": lambda c: {**c, "env": {"FOO": SURROGATE}},
    "env key with =": lambda c: {**c, "env": {"A=B": "1"}},
    "refused env key": lambda c: {**c, "env": {"LD_PRELOAD": "/x.so"}},
    "env too large": lambda c: {**c, "env": {f"K{i}": "v" for i in range(1001)}},
    "env value over MAX_ARG_STRLEN": lambda c: {**c, "env": {"BIG": "v" * 140_000}},
    "missing workdir": lambda c: {**c, "workdir": "/nonexistent/openclaw-test"},
    "surrogate workdir": lambda c: {**c, "workdir": "/tmp/" + SURROGATE},
    "elevated without permission": lambda c: {**c, "elevated": True},
    "deep nesting": lambda c: {**c, "env": {"FOO": deep(40)}},
    "unknown tool": lambda c: {**c, "tool": "exce"},
}
PROCESS_CORRUPTIONS: dict[str, Any] = {
    "unknown parameter": lambda c: {**c, "bogus": 1},
    "unknown action": lambda c: {**c, "action": "pol"},
    "action not a string": lambda c: {**c, "action": 3},
    "surrogate sessionId": lambda c: {**c, "sessionId": SURROGATE},
    "unknown sessionId": lambda c: {**c, "sessionId": "no-such-session"},
    "sessionId not a string": lambda c: {**c, "sessionId": ["x"]},
    "surrogate data": lambda c: {**c, "action": "write", "data": "y" + SURROGATE},
    "surrogate text": lambda c: {**c, "action": "paste", "text": SURROGATE},
    "surrogate key": lambda c: {**c, "action": "send-keys", "keys": ["Enter", SURROGATE]},
    "surrogate literal": lambda c: {**c, "action": "send-keys", "literal": SURROGATE},
    "keys not a list": lambda c: {**c, "action": "send-keys", "keys": {"a": 1}},
    "too many keys": lambda c: {**c, "action": "send-keys", "keys": ["a"] * 1001},
    "negative offset": lambda c: {**c, "action": "log", "offset": -1},
    "zero limit": lambda c: {**c, "action": "log", "limit": 0},
    "negative poll timeout": lambda c: {**c, "action": "poll", "timeout": -5},
    "misplaced eof": lambda c: {**c, "action": "send-keys", "keys": ["Enter"], "eof": True},
    "nothing to send": lambda c: (
        {k: v for k, v in c.items() if k not in ("keys", "hex", "literal")} | {"action": "send-keys"}
    ),
    "deep nesting": lambda c: {**c, "keys": deep(40)},
    "tool missing": lambda c: {k: v for k, v in c.items() if k != "tool"},
}


@st.composite
def exec_call(draw: st.DrawFn) -> dict[str, Any]:
    call: dict[str, Any] = {"tool": "exec", "command": draw(st.sampled_from(HARMLESS))}
    if draw(st.booleans()):
        call["pty"] = draw(st.booleans())
    if draw(st.booleans()):
        call["background"] = draw(st.booleans())
    if draw(st.booleans()):
        call["yieldMs"] = draw(st.integers(min_value=-10, max_value=3000) | st.just(10**30))
    if draw(st.booleans()):
        call["timeout"] = draw(st.sampled_from([0, 0.001, 5, 1e300]))
    if draw(st.booleans()):
        call["workdir"] = draw(st.sampled_from([None, "/tmp", "/", "~"]))
    if draw(st.booleans()):
        call["env"] = draw(
            st.dictionaries(
                st.sampled_from(["FOO", "BAR_1", "LANG", "lower"]),
                st.text(max_size=20)
                .filter(lambda v: "\0" not in v)
                .filter(lambda v: v.isascii() or _encodes(v))
                | st.integers()
                | st.booleans(),
                max_size=3,
            )
        )
    return call


@st.composite
def process_call(draw: st.DrawFn, live: list[str]) -> dict[str, Any]:
    """A process call; ``live`` are ids of sessions the call may act on (never kill, clear or remove)."""
    action = draw(
        st.sampled_from(
            [
                "list",
                "poll",
                "log",
                "screen",
                "write",
                "send-keys",
                "submit",
                "paste",
                "kill",
                "clear",
                "remove",
            ]
        )
    )
    call: dict[str, Any] = {"tool": "process", "action": action}
    ending = action in ("kill", "clear", "remove")
    if action != "list":
        call["sessionId"] = "no-such-session" if ending or not live else draw(st.sampled_from(live))
    if action == "poll" and draw(st.booleans()):
        call["timeout"] = draw(st.integers(min_value=0, max_value=50))
    if action == "log":
        if draw(st.booleans()):
            call["offset"] = draw(st.integers(min_value=0, max_value=10**20))
        if draw(st.booleans()):
            call["limit"] = draw(st.integers(min_value=1, max_value=10**20))
    if action == "write":
        call["data"] = draw(st.text(max_size=200).filter(_encodes))
        if draw(st.booleans()):
            call["eof"] = False
    if action == "send-keys":
        call["keys"] = draw(
            st.lists(st.sampled_from(KEY_TOKENS) | st.text(max_size=6).filter(_encodes), max_size=5)
        )
        if draw(st.booleans()):
            call["hex"] = draw(st.lists(st.sampled_from(["1b", "0x03", "zz", "", "fff", "41"]), max_size=4))
        if draw(st.booleans()):
            call["literal"] = draw(st.text(max_size=20).filter(_encodes))
    if action == "paste":
        call["text"] = draw(st.text(max_size=200).filter(_encodes))
        if draw(st.booleans()):
            call["bracketed"] = draw(st.booleans())
    return call


@st.composite
def tool_call(draw: st.DrawFn, live: list[str]) -> tuple[dict[str, Any], list[str]]:
    """``(call, corruptions)``: a call and the names of the corruptions applied (empty: maybe valid)."""
    if draw(st.integers(min_value=0, max_value=3)) == 0:
        call, table = draw(exec_call()), EXEC_CORRUPTIONS
    else:
        call, table = draw(process_call(live)), PROCESS_CORRUPTIONS
    names = draw(st.lists(st.sampled_from(sorted(table)), max_size=2, unique=True))
    for name in names:
        call = table[name](call)
    return call, names


def runs_only_harmless_commands(value: Any) -> bool:
    """Whether every ``command`` anywhere in ``value`` is one a generated call may carry (random JSON could,
    by a fluke, spell an exec call: such an input is skipped, never sent)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            command = item.get("command")
            if (
                isinstance(command, str)
                and command not in HARMLESS
                and not command.startswith(("echo ", "   "))
            ):
                return False
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return True


def _encodes(text: str) -> bool:
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True


class HostThread:
    """A real host (and its socket server) on an event loop of its own thread, so a synchronous
    hypothesis test can drive it, and a call that never returns is caught as a hang."""

    def __init__(self, sock: Path) -> None:
        from openclaw_tui import ToolHost
        from openclaw_tui.core.config.settings import ExecSettings, Settings
        from openclaw_tui.remote.server.hostserver import HostServer

        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="host-loop", daemon=True)
        self.thread.start()
        # Gateway runs: these tests are about the calls, and a sandbox start per generated exec costs time.
        settings = Settings(exec=replace(ExecSettings(), placement="gateway"))
        self.host = ToolHost(settings=settings)
        self.server = HostServer(self.host, sock)
        self.sock = sock
        self.run(self._start())

    async def _start(self) -> None:
        self.host.start()
        await self.server.start()

    def run(self, coro: Any, timeout: float = HANG_S) -> Any:
        """Run ``coro`` on the host's loop; a TimeoutError here means the host hung."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def call(self, call: Any, agent: str | None = "prop") -> dict[str, Any]:
        result: dict[str, Any] = self.run(self.host.call(call, agent=agent))
        return result

    def close(self) -> None:
        async def stop() -> None:
            await self.server.close()
            await self.host.close()

        try:
            self.run(stop(), timeout=60)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(10)
            self.loop.close()


def check_result(res: Any, corruptions: list[str]) -> None:
    """What every result must be; a corrupted call must fail, naming a reason."""
    assert isinstance(res, dict) and isinstance(res.get("text"), str), res
    details = res["details"]
    assert details["status"] in ("running", "completed", "failed"), res
    assert details.get("failureKind") != "internal-error", res
    encode(res)  # every result must go over the socket as it is
    if corruptions:
        assert details["status"] == "failed", (corruptions, res)
        assert isinstance(details.get("failureKind"), str) and details["failureKind"], (corruptions, res)
        assert res["text"].strip(), (corruptions, res)

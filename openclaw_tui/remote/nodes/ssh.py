"""One connection to a node: ``ssh NODE openclaw-tui bridge`` carrying a host client over its stdin/stdout."""

from __future__ import annotations

import asyncio
import contextlib
import shlex
from typing import Any

from openclaw_tui.core.config import NodeSettings

from ..wire import HostClient, protocol as p

DEFAULT_OPTIONS = (
    "-T",
    "-o", "BatchMode=yes",
    "-o", "ConnectTimeout=10",
    "-o", "ServerAliveInterval=15",
    "-o", "ServerAliveCountMax=3",
)
HELLO_TIMEOUT_S = 60.0  # the ssh connect, plus a host the bridge may have to start there
CLOSE_GRACE_S = 3.0
STDERR_KEEP = 8192
NOT_FOUND = (126, 127)  # the remote shell's "not found" / "not executable"


class NodeUnreachable(ConnectionError):
    """A node could not be reached; the message names it and says what was tried."""


def ssh_argv(node: NodeSettings, start: bool = True) -> list[str]:
    """The ssh command line for ``node``; ``start=False`` asks the bridge not to start a host there."""
    remote = [node.command, "bridge"]  # command is a shell snippet on purpose (a path, or env ... python -m)
    if node.socket:
        remote += ["--socket", shlex.quote(node.socket)]
    if not start:
        remote.append("--no-start")
    return ["ssh", *node.options, *DEFAULT_OPTIONS, "--", node.ssh, " ".join(remote)]


class SshLink:
    """A running ``ssh ... bridge`` and the host client speaking through it."""

    def __init__(self, node: NodeSettings, argv: list[str], proc: asyncio.subprocess.Process) -> None:
        self.node = node
        self.argv = argv
        self.proc = proc
        self._stderr = bytearray()
        self._stderr_task = asyncio.ensure_future(self._read_stderr())
        assert proc.stdout is not None and proc.stdin is not None
        self.client = HostClient(proc.stdout, proc.stdin)

    @classmethod
    async def open(cls, node: NodeSettings, start: bool = True, client: str = "openclaw-tui node client") -> SshLink:
        """Connect and say hello; raises :class:`NodeUnreachable` saying why not (ssh is ended then)."""
        argv = ssh_argv(node, start)
        try:
            proc = await asyncio.create_subprocess_exec(
                *argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
                limit=p.MAX_LINE, start_new_session=True,  # the terminal's Ctrl-C is ours to handle, not ssh's
            )
        except OSError as exc:
            raise NodeUnreachable(f"node {node.name} is unreachable: cannot run `{shlex.join(argv)}`: {exc}") from None
        link = cls(node, argv, proc)
        try:
            link.client.hello = await asyncio.wait_for(link.client.request("hello", {"client": client}),
                                                       HELLO_TIMEOUT_S)
        except (ConnectionError, TimeoutError, p.RemoteError) as exc:
            await link.close()
            raise NodeUnreachable(link.why_not(exc)) from None
        except BaseException:
            await link.close()
            raise
        return link

    @property
    def command_line(self) -> str:
        return shlex.join(self.argv)

    async def close(self) -> None:
        """End the connection: ssh's stdin closes, so the bridge there ends; ssh is killed if it lingers."""
        try:
            await self.client.close()
            try:
                await asyncio.wait_for(self.proc.wait(), CLOSE_GRACE_S)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    self.proc.terminate()
                try:
                    await asyncio.wait_for(self.proc.wait(), CLOSE_GRACE_S)
                except TimeoutError:
                    with contextlib.suppress(ProcessLookupError):
                        self.proc.kill()
                    await self.proc.wait()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(self._stderr_task), 1)
        finally:
            if self.proc.returncode is None:  # cancelled on the way: never leave ssh behind
                with contextlib.suppress(ProcessLookupError):
                    self.proc.kill()
            self._stderr_task.cancel()

    # -- what went wrong ---------------------------------------------------------------------------
    def last_words(self) -> str:
        """ssh's (or the remote command's) last line on stderr, or ""."""
        lines = [line.strip() for line in self._stderr.decode(errors="replace").splitlines()]
        return next((line for line in reversed(lines) if line), "")

    def why_not(self, exc: BaseException | None = None) -> str:
        """Why connecting failed, once ssh has ended: the node, what was tried, and ssh's own last word."""
        name, rc, last = self.node.name, self.proc.returncode, self.last_words()
        if rc in NOT_FOUND or last.endswith(("command not found", ": not found", "No such file or directory")):
            return (f"node {name}: the command {self.node.command!r} was not found on {self.node.ssh} (tried "
                    f"`{self.command_line}`; ssh exited {rc}: {last or 'no message'}); install openclaw-tui there, "
                    f"or set command = \"/path/to/openclaw-tui\" in [nodes.{name}]")
        if rc is None and isinstance(exc, TimeoutError):
            ended = f"did not answer within {HELLO_TIMEOUT_S:.0f} s"
        else:
            ended = f"exited {rc}" if rc is not None else f"failed ({exc})"
        return f"node {name} is unreachable: tried `{self.command_line}`, which {ended}" + (f": {last}" if last else "")

    def dropped(self) -> str:
        """What to say about a connection that was up and went away (once ssh has ended)."""
        last = self.last_words()
        return (f"node {self.node.name}: the connection dropped (`{self.command_line}` exited "
                f"{self.proc.returncode}" + (f": {last}" if last else "") + ")")

    async def _read_stderr(self) -> None:
        stream: Any = self.proc.stderr
        while chunk := await stream.read(4096):
            self._stderr += chunk
            del self._stderr[:-STDERR_KEEP]

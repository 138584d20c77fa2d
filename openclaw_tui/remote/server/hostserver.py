"""The host side of the socket: tool calls, the event stream and raw output for every frontend.

Each request runs in its own task and goes to its handler through :data:`HANDLERS`; pushes to a slow frontend
are coalesced or resumed from the ring, never buffered without bound.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import stat
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from openclaw_tui.core.calls import calltext, failure, toolcall
from openclaw_tui.core.host import SessionHost
from openclaw_tui.core.session import NEW_OUTPUT, Event, EventKind, OutputCoalescer, Session
from openclaw_tui.core.tools import InputRefused, send_input
from openclaw_tui.core.version import __version__

from ..wire import SocketPathError, check_length, ensure_private_dir, protocol as p
from . import rpcparams as check
from .approvalcalls import approvals_decide, approvals_history, approvals_list
from .callers import CONFINED, CallerRefused, Confinement, confinement, peer_pid
from .listener import KEEP_FILE, AlreadyServing, already_serving, is_live, take_lock
from .operatorcalls import notify_mute, notify_test, refused
from .rawpush import RawSubscription

__all__ = ["AlreadyServing", "HostServer"]

DROP_S = 1.0  # at a handover: how long a dropped connection may take to send what it was sent last
OUTPUT_EVENTS_S = 0.03  # output events for a connection go out together, this long after the first

log = logging.getLogger(__name__)


class HostServer:
    """Serves ``host`` on the Unix socket at ``path`` (see :mod:`openclaw_tui.remote.wire`)."""

    def __init__(self, host: SessionHost, path: Path) -> None:
        self.host = host
        self.path = Path(path)
        self._server: asyncio.Server | None = None
        self._connections: set[_Connection] = set()
        self._lock: int | None = None  # the lock file's descriptor while we own the socket
        self.reexec: Callable[[], Awaitable[dict[str, Any]]] | None = None
        """Set by ``serve``: re-executes the host in place (the ``host.reexec`` method); None elsewhere."""

    async def start(self) -> None:
        """Bind the socket, refusing when another host owns it.

        The lock file next to the socket is held for the host's lifetime, so of two hosts starting at the
        same instant exactly one binds: without it both could find no live host and both bind, the second
        unlinking the first's socket. Once bound, the host keeps its sessions as this socket's host
        (``SessionHost.persist``): the journal is the socket's, so only its holder reads or writes it.
        """
        check_length(self.path)
        ensure_private_dir(self.path)
        self._lock = take_lock(self.path)
        try:
            await self._replace_stale_socket()
            old = os.umask(0o177)
            try:
                self._server = await asyncio.start_unix_server(self._accept, path=str(self.path), limit=p.MAX_LINE,
                                                               **KEEP_FILE)
            finally:
                os.umask(old)
            os.chmod(self.path, 0o600)
        except BaseException:
            self._release_lock()
            raise
        self.host.persist(self.path)  # the host on this socket: its sessions are journaled, and come back

    async def _replace_stale_socket(self) -> None:
        """Remove a socket a crashed host left behind; anything else at the path is not ours to remove."""
        try:
            info = self.path.lstat()
        except FileNotFoundError:
            return
        if not stat.S_ISSOCK(info.st_mode):
            raise SocketPathError(f"{self.path} exists and is not a socket; refusing to replace it "
                                  "(remove it, or set $OPENCLAW_TUI_SOCKET to another path)")
        if await is_live(self.path):  # a host that takes no lock (an older version) still owns it
            raise AlreadyServing(already_serving(self.path))
        self.path.unlink()

    def _release_lock(self) -> None:
        if self._lock is not None:
            os.close(self._lock)  # closing the file releases the flock
            self._lock = None

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            for conn in list(self._connections):
                conn.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 2)
            self._server = None
        if self._lock is not None:  # only the lock's holder may remove the socket: it could be another host's
            with contextlib.suppress(FileNotFoundError):
                self.path.unlink()
            self._release_lock()

    # -- a re-exec in place ----------------------------------------------------------------------
    async def hand_over(self) -> dict[str, Any]:
        """Stop serving but keep the socket bound and locked for the next image: a copy of the listening fd
        outlives the server (clients connecting meanwhile wait in its backlog), and every connection is
        dropped once what it was last sent is out (its requests are not answered: clients reconnect)."""
        assert self._server is not None and self._lock is not None
        listen = os.dup(self._server.sockets[0].fileno())
        self._server.close()
        self._server = None
        await asyncio.gather(*(conn.drop() for conn in list(self._connections)))
        return {"path": str(self.path), "listen": listen, "lock": self._lock}

    async def adopt(self, handed: dict[str, Any]) -> None:
        """Serve on the socket :meth:`hand_over` kept (in the next image, or in this one if the exec failed)."""
        for fd in (handed["listen"], handed["lock"]):
            os.set_inheritable(fd, False)
        self._lock = handed["lock"]
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM, fileno=handed["listen"])
        self._server = await asyncio.start_unix_server(self._accept, sock=sock, limit=p.MAX_LINE, **KEEP_FILE)

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        conn = _Connection(self.host, reader, writer, confinement(self.host, writer), peer_pid(writer))
        conn.reexec = self.reexec
        self._connections.add(conn)
        try:
            await conn.serve()
        finally:
            self._connections.discard(conn)
            conn.close()


class _Connection:
    def __init__(self, host: SessionHost, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 confined: Confinement | None = None, pid: int | None = None) -> None:
        self.host = host
        self.confined = confined
        self.pid = pid
        self.client = ""  # what it said it is in its hello
        self.leave_approvers: Callable[[], None] | None = None
        self.unwatch_figures: Callable[[], None] | None = None
        self.reader = reader
        self.writer = writer
        self.tasks: set[asyncio.Task[None]] = set()
        self.by_id: dict[Any, asyncio.Task[None]] = {}
        self.unsubscribe_events: Any = None
        self.events = OutputCoalescer(self._push_event)
        self.output_to_send: set[str] = set()
        self.raw: dict[str, RawSubscription] = {}
        self.closed = False
        self.reexec: Callable[[], Awaitable[dict[str, Any]]] | None = None

    # -- plumbing -------------------------------------------------------------------------------
    def send(self, data: bytes) -> None:
        if not self.closed and not self.writer.is_closing():
            self.writer.write(data)

    @property
    def backlog(self) -> int:
        transport = self.writer.transport
        return transport.get_write_buffer_size() if transport is not None else 0

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        self._unsubscribe()
        for sub in self.raw.values():
            sub.stop()
        for task in self.tasks:
            task.cancel()
        self.writer.close()

    async def drop(self) -> None:
        """A handover: stop serving this client, leaving its requests unanswered rather than cancelled (a
        cancelled foreground exec would end its run, which the next image is to keep), once what it was
        sent last (the answer to ``host.reexec``) is out, or after ``DROP_S``."""
        self.closed = True
        self._unsubscribe()
        for sub in self.raw.values():
            sub.stop()
        self.writer.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.writer.wait_closed(), DROP_S)

    async def serve(self) -> None:
        while not self.closed:
            try:
                line = await self.reader.readline()
            except (ValueError, asyncio.LimitOverrunError):
                self.send(p.error(None, p.INVALID_REQUEST, "message too long"))
                return
            except ConnectionError:
                return
            if not line:
                return
            if line.isspace():  # not strip(): that would copy a 10 MB line just to look at it
                continue
            try:  # a large message is decoded off the loop, before the next one is read (order is kept)
                msg = calltext.loads(line) if len(line) < calltext.LARGE else await asyncio.to_thread(
                    calltext.loads_large, line)
            except calltext.BadJSON as exc:
                self.send(p.error(None, p.PARSE_ERROR, f"not valid JSON: {exc}"))
                continue
            self._handle_safely(msg)

    def _handle_safely(self, msg: Any) -> None:
        """Handle one message; a bug in doing so is logged and answered, and the connection keeps serving."""
        try:
            self._handle(msg)
        except Exception as exc:
            log.exception("openclaw-tui host: could not handle a message")
            self.send(p.error(None, p.INTERNAL_ERROR, f"internal error: {type(exc).__name__}: {exc}"))

    def _handle(self, msg: Any) -> None:
        if isinstance(msg, dict) and not check.valid_id(msg.get("id")):
            self.send(p.error(None, p.INVALID_REQUEST, "the request id must be a string, a number or null"))
            return
        if not isinstance(msg, dict) or not isinstance(msg.get("method"), str):
            self.send(p.error(msg.get("id") if isinstance(msg, dict) else None, p.INVALID_REQUEST,
                              "expected a JSON-RPC 2.0 request object with a method"))
            return
        params = msg.get("params") or {}
        if msg["method"] == "cancel" and isinstance(params, dict):
            if not check.valid_id(params.get("id")):
                return  # a notification gets no answer, and no request has such an id
            running = self.by_id.get(params.get("id"))
            if running is not None:
                running.cancel()  # the client gave up on it: a foreground exec ends its run
            return
        id_ = msg.get("id")
        answer = "id" in msg  # without an id it is a notification: JSON-RPC never answers those, not even errors
        task = asyncio.ensure_future(self._run(id_, msg["method"], params, answer))
        self.tasks.add(task)
        if id_ is not None:
            self.by_id[id_] = task
        def forget(done: asyncio.Task[None]) -> None:
            self.tasks.discard(done)
            self.by_id.pop(id_, None)

        task.add_done_callback(forget)

    async def _run(self, id_: Any, method: str, params: Any, answer: bool = True) -> None:
        """Answer one request: its result, or an error saying what was wrong with it or in the host."""
        try:
            reply = p.response(id_, await self._dispatch(method, params))
        except asyncio.CancelledError:
            raise  # the client cancelled it, or the connection is closing: nobody waits for an answer
        except p.RemoteError as exc:
            reply = p.error(id_, exc.code, str(exc))
        except Exception as exc:
            log.exception("openclaw-tui host: the %s request failed", method)
            reply = p.error(id_, p.INTERNAL_ERROR, f"internal error in {method}: {type(exc).__name__}: {exc}")
        if answer:
            self.send(reply)

    async def _dispatch(self, method: str, params: Any) -> Any:
        handler = HANDLERS.get(method)
        if handler is None:
            raise p.RemoteError(p.METHOD_NOT_FOUND, f"unknown method {method!r}")
        return await handler(self, **check.names(method, params))

    def _scope(self) -> str | None:
        """The agent whose sessions this connection may see (None: all of them, as the operator)."""
        return None if self.confined is None else self.confined.scope()

    def _session(self, sessionId: Any) -> Session:
        session = self.host.session(check.text("sessionId", sessionId), self._scope())
        if session is None:
            raise check.invalid(f"no session {sessionId!r}")
        return session

    # -- methods --------------------------------------------------------------------------------
    async def m_hello(self, client: str = "") -> dict[str, Any]:
        self.client = check.text("client", client)
        return {"protocol": p.PROTOCOL_VERSION, "server": "openclaw-tui", "version": __version__, "pid": os.getpid(),
                "hostId": self.host.supervisor.containment.id, "generation": self.host.generation}

    async def m_host_reexec(self) -> dict[str, Any]:
        """Re-execute the host in place on the code installed now (``serve --reexec``): answered first, then
        the handover begins and this connection is dropped."""
        if self.confined is not None:
            raise p.RemoteError(p.REFUSED, "refused: a process inside a session cannot restart the host")
        if self.reexec is None:
            raise p.RemoteError(p.REFUSED, "this host cannot re-execute itself: it runs inside another "
                                           "program; only `openclaw-tui serve` can")
        return await self.reexec()

    async def m_call(self, call: Any, agent: str | None = None, operator: Any = False) -> dict[str, Any]:
        if agent is not None:
            check.text("agent", agent)
        if not isinstance(operator, bool) or (operator and agent is not None):
            raise check.invalid("operator must be true or false, and with operator no agent is named")
        if operator and (no := refused(self.confined)) is not None:
            return no
        try:  # the protocol's call is an object: a string is not decoded again
            call = toolcall.as_object(call)
        except toolcall.BadCall as exc:
            return exc.result
        try:
            agent = agent if self.confined is None else self.confined.as_agent(agent)
        except CallerRefused as exc:
            return failure(f"refused: this connection comes from {exc}", "caller-confined")
        return await self.host.call(call, agent=agent)

    async def m_events_subscribe(self, approver: bool = False, operator: Any = False) -> dict[str, Any]:
        if not isinstance(operator, bool):
            raise check.invalid("operator must be true or false")
        if operator and self.confined is not None:
            raise p.RemoteError(CONFINED, f"refused (caller-confined): this connection comes from a process inside "
                                          f"session {self.confined.session_id}; only the operator watches every session")
        self._scope()
        if not isinstance(approver, bool):
            raise check.invalid(f"approver must be true or false (got {calltext.shown(approver)})")
        if self.unsubscribe_events is None:
            self.unsubscribe_events = self.host.subscribe(self._on_event)
        if approver and self.confined is None and self.leave_approvers is None:
            self.leave_approvers = self.host.attend()  # an operator is here to answer: operatorAttached
        return {}

    async def m_figures_watch(self, on: Any = True) -> dict[str, Any]:
        """This client shows the sessions' figures (``on``) or no longer does: the host reads them while any
        client does (``session-resources`` events), and stops when it goes."""
        if not isinstance(on, bool):
            raise check.invalid(f"on must be true or false (got {calltext.shown(on)})")
        if on and self.unwatch_figures is None:
            self.unwatch_figures = self.host.watch_figures()
        elif not on and self.unwatch_figures is not None:
            self.unwatch_figures()
            self.unwatch_figures = None
        return {}

    async def m_events_unsubscribe(self) -> dict[str, Any]:
        self._unsubscribe()
        return {}

    def _unsubscribe(self) -> None:
        if self.unsubscribe_events is not None:
            self.unsubscribe_events()
            self.unsubscribe_events = None
        if self.leave_approvers is not None:
            self.leave_approvers()
            self.leave_approvers = None
        if self.unwatch_figures is not None:
            self.unwatch_figures()
            self.unwatch_figures = None

    def _on_event(self, event: Event) -> None:
        if self.confined is not None:
            seen = self.confined.sees(event, self.host)
            if seen is None:
                return
            event = seen
        self.events(event)

    def _push_event(self, event: Event) -> None:
        if event.kind == EventKind.OUTPUT and event.session_id is not None:
            if not self.output_to_send:
                asyncio.get_running_loop().call_later(OUTPUT_EVENTS_S, self._flush_output_events)
            self.output_to_send.add(event.session_id)
            return
        self.send(p.notification("event", event.to_json()))

    def _flush_output_events(self) -> None:
        ids, self.output_to_send = self.output_to_send, set()
        for sid in ids:
            self.send(p.notification("event", Event(EventKind.OUTPUT, sid, NEW_OUTPUT).to_json()))
            self.events.handled(sid)

    async def m_raw_subscribe(self, sessionId: str, offset: int | None = None) -> dict[str, Any]:
        session = self._session(sessionId)
        if sessionId in self.raw:
            self.raw.pop(sessionId).stop()
        start = session.raw.start if offset is None else max(session.raw.start, check.offset("offset", offset))
        sub = RawSubscription(self, session, start)
        self.raw[sessionId] = sub
        sub.schedule()
        return {"start": start, "end": session.raw.end}

    async def m_raw_unsubscribe(self, sessionId: str) -> dict[str, Any]:
        sub = self.raw.pop(check.text("sessionId", sessionId), None)
        if sub is not None:
            sub.stop()
        return {}

    async def m_notify_mute(self, muted: Any, sessionId: Any = None, agent: Any = None) -> dict[str, Any]:
        return await notify_mute(self.host, self.confined, muted, sessionId, agent)

    async def m_notify_test(self) -> dict[str, Any]:
        return await notify_test(self.host, self.confined)

    async def m_session_input(self, sessionId: str, data: str, source: str = "operator", action: str = "type") -> dict[str, Any]:
        session = self._session(sessionId)
        payload = check.base64_bytes("data", data)
        check.text("source", source)
        if self.confined is not None:
            source = self.confined.scope()  # recorded as its agent's input, never the operator's
        try:
            sent = await send_input(session, payload, source, check.text("action", action))
        except InputRefused as exc:
            raise p.RemoteError(p.INPUT_REFUSED, str(exc)) from None
        return {"bytesWritten": sent.written, "bytesQueued": sent.queued}

    async def m_session_resize(self, sessionId: str, cols: int, rows: int) -> dict[str, Any]:
        session = self._session(sessionId)
        by = "operator" if self.confined is None else self.confined.scope()  # as its input is recorded
        session.resize(check.side("cols", cols), check.side("rows", rows), by)
        return {}

    async def m_session_export(self, sessionId: str, format: Any = None, since: Any = None, until: Any = None,
                               idleLimit: Any = None, inputs: Any = None) -> dict[str, Any]:
        """The process tool's ``export``, for this connection's scope: the operator's, or a session's agent's
        (the tool validates the rest, as for any call)."""
        given = {"format": format, "since": since, "until": until, "idleLimit": idleLimit, "inputs": inputs}
        call = {"tool": "process", "action": "export", "sessionId": check.text("sessionId", sessionId),
                **{k: v for k, v in given.items() if v is not None}}
        return await self.host.call(call, agent=self._scope())

    async def m_session_output(self, sessionId: str, since: int | None = None,
                               after: int | None = None) -> dict[str, Any]:
        """Retained output and input history; with ``since`` (a previous ``totalChars``), only what is new
        when it is all still retained; with ``after`` (a wall-clock time in ms), what came from then on."""
        session = self._session(sessionId)
        if since is not None:
            check.offset("since", since)
        out = session.output
        base = {"totalChars": out.total_chars, "inputs": session.inputs.to_json(), "rawEnd": session.raw.end}
        if after is not None:
            since, base["rawFrom"] = session.capture.since_time(check.offset("after", after))
        new = out.since(since) if since is not None else None
        if new is not None:
            return {**base, "incremental": True, "chunks": [c.to_json() for c in new]}
        return {**base, "incremental": False, **out.to_json(pending=False)}


HANDLERS: dict[str, Callable[..., Awaitable[Any]]] = {
    # one row per method of protocol.METHODS; each handler takes the connection and that method's params
    "hello": _Connection.m_hello,
    "call": _Connection.m_call,
    "events.subscribe": _Connection.m_events_subscribe,
    "events.unsubscribe": _Connection.m_events_unsubscribe,
    "figures.watch": _Connection.m_figures_watch,
    "raw.subscribe": _Connection.m_raw_subscribe,
    "raw.unsubscribe": _Connection.m_raw_unsubscribe,
    "session.input": _Connection.m_session_input,
    "session.resize": _Connection.m_session_resize,
    "session.output": _Connection.m_session_output,
    "session.export": _Connection.m_session_export,
    "host.reexec": _Connection.m_host_reexec,
    "approvals.list": approvals_list,
    "approvals.history": approvals_history,
    "approvals.decide": approvals_decide,
    "notify.mute": _Connection.m_notify_mute,
    "notify.test": _Connection.m_notify_test,
}

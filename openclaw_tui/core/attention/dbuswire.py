"""A small D-Bus client on asyncio streams: enough of the wire format for a method call and its reply.

It connects to the session bus (``$DBUS_SESSION_BUS_ADDRESS``, else ``$XDG_RUNTIME_DIR/bus``), authenticates
as this uid (EXTERNAL), says Hello, then sends calls and reads messages; the marshalling covers every basic
type, arrays, structs, dict entries and variants (the Notify call needs ``susssasa{sv}i``).
"""

from __future__ import annotations

import asyncio
import os
import struct
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

METHOD_CALL, METHOD_RETURN, ERROR, SIGNAL = 1, 2, 3, 4
NO_REPLY = 0x1
PATH, INTERFACE, MEMBER, ERROR_NAME, REPLY_SERIAL, DESTINATION, SENDER, SIGNATURE = range(1, 9)
_FIELD_TYPES = {PATH: "o", INTERFACE: "s", MEMBER: "s", ERROR_NAME: "s", REPLY_SERIAL: "u", DESTINATION: "s",
                SENDER: "s", SIGNATURE: "g"}
_FIXED = {"y": "B", "b": "I", "n": "h", "q": "H", "i": "i", "u": "I", "x": "q", "t": "Q", "d": "d", "h": "I"}
_ALIGN = {"y": 1, "g": 1, "v": 1, "n": 2, "q": 2, "b": 4, "i": 4, "u": 4, "h": 4, "s": 4, "o": 4, "a": 4,
          "x": 8, "t": 8, "d": 8, "(": 8, "{": 8}
MAX_MESSAGE = 1 << 27  # the specification's limit


class DBusError(Exception):
    """The bus or a peer answered with an error, or the connection failed; the message says which."""


def split_types(signature: str) -> list[str]:
    """A signature's complete types, in order: ``"sa{sv}i"`` → ``["s", "a{sv}", "i"]``."""
    out, i = [], 0
    while i < len(signature):
        j = _type_end(signature, i)
        out.append(signature[i:j])
        i = j
    return out


def _type_end(sig: str, i: int) -> int:
    if i >= len(sig):
        raise DBusError(f"incomplete signature {sig!r}")
    c = sig[i]
    if c == "a":
        return _type_end(sig, i + 1)
    if c in "({":
        close, depth, j = {"(": ")", "{": "}"}[c], 1, i + 1
        while depth:
            if j >= len(sig):
                raise DBusError(f"unbalanced signature {sig!r}")
            depth += {c: 1, close: -1}.get(sig[j], 0)
            j += 1
        return j
    if c in _ALIGN:
        return i + 1
    raise DBusError(f"unknown type {c!r} in signature {sig!r}")


class Marshaller:
    """Marshals values into a message (little-endian; offsets count from the message's start)."""

    def __init__(self) -> None:
        self.data = bytearray()

    def pad(self, n: int) -> None:
        self.data += b"\0" * (-len(self.data) % n)

    def put(self, sig: str, value: Any) -> None:
        c = sig[0]
        self.pad(_ALIGN[c])
        if c in _FIXED:
            self.data += struct.pack("<" + _FIXED[c], int(value) if c == "b" else value)
        elif c in "so":
            raw = value.encode()
            self.data += struct.pack("<I", len(raw)) + raw + b"\0"
        elif c == "g":
            raw = value.encode()
            self.data += bytes([len(raw)]) + raw + b"\0"
        elif c == "v":
            inner, item = value
            self.put("g", inner)
            self.put(inner, item)
        elif c == "a":
            self._array(sig[1:], value)
        else:  # a struct or a dict entry: its fields in order
            for part, item in zip(split_types(sig[1:-1]), value, strict=True):
                self.put(part, item)

    def _array(self, inner: str, value: Any) -> None:
        at = len(self.data)
        self.data += b"\0\0\0\0"
        self.pad(_ALIGN[inner[0]])
        start = len(self.data)
        for item in (value.items() if isinstance(value, dict) else value):
            self.put(inner, item)
        struct.pack_into("<I", self.data, at, len(self.data) - start)


class Unmarshaller:
    """Unmarshals values from a message of either byte order."""

    def __init__(self, data: bytes, little: bool, pos: int = 0) -> None:
        self.data, self.pos, self.order = data, pos, "<" if little else ">"

    def align(self, n: int) -> None:
        self.pos += -self.pos % n

    def _fixed(self, code: str) -> Any:
        (value,) = struct.unpack_from(self.order + code, self.data, self.pos)
        self.pos += struct.calcsize(code)
        return value

    def get(self, sig: str) -> Any:
        c = sig[0]
        self.align(_ALIGN[c])
        if c in _FIXED:
            value = self._fixed(_FIXED[c])
            return bool(value) if c == "b" else value
        if c in "sog":
            n = self._fixed("B") if c == "g" else self._fixed("I")
            text = self.data[self.pos:self.pos + n].decode("utf-8", "replace")
            self.pos += n + 1
            return text
        if c == "v":
            inner = self.get("g")
            return inner, self.get(inner)
        if c == "a":
            n = self._fixed("I")
            self.align(_ALIGN[sig[1]])
            end, items = self.pos + n, []
            while self.pos < end:
                items.append(self.get(sig[1:]))
            return dict(items) if sig[1] == "{" else items
        return tuple(self.get(part) for part in split_types(sig[1:-1]))


@dataclass
class Message:
    kind: int
    serial: int
    fields: dict[int, Any] = field(default_factory=dict)
    body: list[Any] = field(default_factory=list)
    flags: int = 0

    @property
    def signature(self) -> str:
        return str(self.fields.get(SIGNATURE, ""))

    def encode(self) -> bytes:
        payload = Marshaller()
        for sig, value in zip(split_types(self.signature), self.body, strict=True):
            payload.put(sig, value)
        head = Marshaller()
        head.data += struct.pack("<cBBBII", b"l", self.kind, self.flags, 1, len(payload.data), self.serial)
        head.put("a(yv)", [(code, (_FIELD_TYPES[code], value)) for code, value in self.fields.items()])
        head.pad(8)
        return bytes(head.data + payload.data)


async def read_message(stream: asyncio.StreamReader) -> Message:
    """The next message on ``stream``; raises DBusError when it ends or lies about its size."""
    try:
        fixed = await stream.readexactly(16)
        little = fixed[:1] == b"l"
        kind, flags, _version = fixed[1], fixed[2], fixed[3]
        body_len, serial, fields_len = struct.unpack_from("<III" if little else ">III", fixed, 4)
        if body_len + fields_len > MAX_MESSAGE:
            raise DBusError("a message larger than D-Bus allows")
        rest = await stream.readexactly(fields_len + (-(16 + fields_len) % 8) + body_len)
    except asyncio.IncompleteReadError:
        raise DBusError("the bus closed the connection") from None
    data = fixed + rest
    reader = Unmarshaller(data, little, 12)
    fields = {code: value for code, (_, value) in reader.get("a(yv)")}
    reader.align(8)
    message = Message(kind, serial, fields, flags=flags)
    message.body = [reader.get(sig) for sig in split_types(message.signature)]
    return message


def session_bus_address(env: Mapping[str, str] | None = None) -> str | None:
    """The session bus's socket, from ``$DBUS_SESSION_BUS_ADDRESS`` (``unix:path=`` or ``unix:abstract=``,
    abstract sockets as a leading NUL) or ``$XDG_RUNTIME_DIR/bus``; None when there is none to try."""
    env = os.environ if env is None else env
    for entry in env.get("DBUS_SESSION_BUS_ADDRESS", "").split(";"):
        kind, _, params = entry.partition(":")
        keys = dict(p.partition("=")[::2] for p in params.split(",") if "=" in p)
        if kind == "unix" and "path" in keys:
            return unescape(keys["path"])
        if kind == "unix" and "abstract" in keys:
            return "\0" + unescape(keys["abstract"])
    runtime = env.get("XDG_RUNTIME_DIR")
    if runtime and os.path.exists(os.path.join(runtime, "bus")):
        return os.path.join(runtime, "bus")
    return None


def unescape(value: str) -> str:
    """A D-Bus address value with its ``%XX`` escapes decoded."""
    out, i = bytearray(), 0
    while i < len(value):
        if value[i] == "%" and i + 2 < len(value):
            out.append(int(value[i + 1:i + 3], 16))
            i += 3
        else:
            out += value[i].encode()
            i += 1
    return out.decode()


class Bus:
    """One authenticated connection to a bus."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self._serial = 0
        self.name = ""

    @classmethod
    async def connect(cls, address: str) -> Bus:
        """Connect to the socket ``address``, authenticate and say Hello; raises DBusError or OSError."""
        reader, writer = await asyncio.open_unix_connection(address)
        bus = cls(reader, writer)
        try:
            writer.write(b"\0AUTH EXTERNAL " + str(os.getuid()).encode().hex().encode() + b"\r\n")
            answer = await reader.readline()
            if not answer.startswith(b"OK "):
                raise DBusError(f"the bus refused us: {answer.decode('latin-1').strip() or 'no answer'}")
            writer.write(b"BEGIN\r\n")
            (bus.name,) = await bus.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                         "Hello")
        except BaseException:
            bus.close()
            raise
        return bus

    def send(self, kind: int, fields: dict[int, Any], signature: str = "", body: Sequence[Any] = (),
             flags: int = 0) -> int:
        """Queue a message; returns its serial."""
        self._serial += 1
        if signature:
            fields = {**fields, SIGNATURE: signature}
        self.writer.write(Message(kind, self._serial, fields, list(body), flags).encode())
        return self._serial

    async def call(self, destination: str, path: str, interface: str, member: str, signature: str = "",
                   body: Sequence[Any] = ()) -> list[Any]:
        """A method call and its reply's body (messages in between are skipped); raises DBusError."""
        serial = self.send(METHOD_CALL, {PATH: path, INTERFACE: interface, MEMBER: member,
                                         DESTINATION: destination}, signature, body)
        while True:
            message = await read_message(self.reader)
            if message.fields.get(REPLY_SERIAL) != serial:
                continue
            if message.kind == ERROR:
                why = message.body[0] if message.body and isinstance(message.body[0], str) else ""
                raise DBusError(f"{message.fields.get(ERROR_NAME, 'error')}" + (f": {why}" if why else ""))
            return message.body

    def reply(self, to: Message, signature: str = "", body: Sequence[Any] = ()) -> None:
        """Answer the method call ``to``."""
        self.send(METHOD_RETURN, {REPLY_SERIAL: to.serial, DESTINATION: to.fields.get(SENDER, "")},
                  signature, body)

    def close(self) -> None:
        self.writer.close()

"""``[notify] desktop = true``: a freedesktop notification (``org.freedesktop.Notifications.Notify``) over
the session bus, when one answers.
"""

from __future__ import annotations

import asyncio

from .alerts import FAILED, HOST_DIED, AlertBatch
from .dbuswire import Bus, DBusError, session_bus_address
from .hooks import HookFailed

NOTIFICATIONS = ("org.freedesktop.Notifications", "/org/freedesktop/Notifications", "org.freedesktop.Notifications")
APP = "openclaw-tui"
URGENCY = {FAILED: 2, HOST_DIED: 2}  # critical; everything else normal (1)


class DesktopHook:
    """One connection per notification: a desktop session's bus may come and go with its login."""

    name = "desktop"

    async def send(self, batch: AlertBatch, timeout_s: float) -> str:
        address = session_bus_address()
        if address is None:
            raise HookFailed("no session bus (DBUS_SESSION_BUS_ADDRESS is unset and $XDG_RUNTIME_DIR/bus is missing)")
        summary = f"openclaw: {_title(batch)}"
        hints = {"urgency": ("y", URGENCY.get(batch.event, 1))}
        try:
            bus = await asyncio.wait_for(Bus.connect(address), timeout_s)
        except (OSError, DBusError) as exc:
            raise HookFailed(f"the session bus does not answer: {getattr(exc, 'strerror', None) or exc}") from None
        try:
            (notice_id,) = await bus.call(*NOTIFICATIONS, "Notify", "susssasa{sv}i",
                                          [APP, 0, "", summary, batch.text, [], hints, -1])
        except DBusError as exc:
            raise HookFailed(f"the desktop did not take it: {exc}") from None
        finally:
            bus.close()
        return f"notification {notice_id}"


def _title(batch: AlertBatch) -> str:
    first = batch.alerts[0]
    if len(batch.alerts) > 1:
        return f"{len(batch.alerts)} × {batch.event}"
    return f"{first.agent or 'operator'}/{first.name}" if first.session_id else f"node {first.node}"

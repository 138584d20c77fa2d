"""The tiles: up to four marked sessions at once, each a live view, laid out as :mod:`.arrangement` decides.

Every tile's terminal draws on the app's one frame clock, so four tiles cost what one view costs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.containers import Grid

from openclaw_tui.remote.mirror import HostView, SessionView

from ..sessions.terminal_view import TerminalView
from .arrangement import arrange
from .tile import Tile


class TileGrid(Grid):
    """Shows the sessions given to :meth:`show`; ``tab`` and ``shift+tab`` move the focus between tiles."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("tab", "focus_tile(1)", "Next", id="tile-next"),  # short: the footer fits it at 80 columns
        Binding("shift+tab", "focus_tile(-1)", "Previous tile", id="tile-previous", show=False),
    ]

    def __init__(self, host: HostView, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.host = host

    @property
    def tiles(self) -> list[Tile]:
        return list(self.query(Tile))

    @property
    def focused_tile(self) -> Tile | None:
        """The tile holding the focus (its body has it), else the first."""
        tiles = self.tiles
        return next((t for t in tiles if t.body.has_focus), tiles[0] if tiles else None)

    @property
    def typing(self) -> TerminalView | None:
        """The tile's terminal being typed through, if any."""
        return next((t.terminal for t in self.tiles if t.typing), None)

    async def show(self, sessions: Sequence[SessionView]) -> None:
        """Tile ``sessions`` (the first has the focus), or none (each tile lets go of its session)."""
        for tile in self.tiles:
            tile.detach()
        await self.remove_children()
        if sessions:
            await self.mount_all(Tile(self.host, s) for s in sessions)
            self._lay_out()
            self.tiles[0].body.focus()

    def on_resize(self, event: events.Resize) -> None:
        self._lay_out()

    def _lay_out(self) -> None:
        tiles = self.tiles
        if not tiles:
            return
        shape = arrange(len(tiles), self.size.width or self.app.size.width)
        self.styles.grid_size_columns, self.styles.grid_size_rows = shape.columns, shape.rows
        for n, tile in enumerate(tiles):
            tile.styles.column_span = shape.last_spans if n == len(tiles) - 1 else 1

    def refresh_titles(self) -> None:
        for tile in self.tiles:
            tile.refresh_title()

    def output_arrived(self, session_id: str) -> None:
        for tile in self.tiles:
            if tile.session.id == session_id:
                tile.output_arrived()

    def action_focus_tile(self, step: int) -> None:
        tiles = self.tiles
        current = self.focused_tile
        if tiles and current is not None:
            tiles[(tiles.index(current) + step) % len(tiles)].body.focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "focus_tile":
            return len(self.tiles) > 1 and self.typing is None  # typing through, tab goes to the program
        return True

"""Several sessions at once: the marked sessions tiled over the workspace, each a live view.

``space`` marks sessions in the list (the workspace keeps the marks, the list draws them); ``v`` shows up to
four of them in the tile grid (``tilegrid``) in place of the list and the single view, and ``v`` again
leaves. How the tiles share the room is pure (``arrangement``): side by side while each keeps 80 columns,
else stacked, two to a row when that still leaves 80 each. Each tile (``tile``) is the single view's own body,
the terminal widget for a PTY session (at the PTY's size, cropped around the cursor as the single view
crops it) or the stream log for a pipe session, under a title in its border: id, command, status and the
waiting marker; the focused tile's border stands out. ``tab`` and ``shift+tab`` move the focus between
tiles, and the session keys (type-through, send keys, submit, paste, kill, copy, scrolling back) act on the
focused tile's session. Type-through in a tile follows the single view's rules: every key goes to the
program, the leave key (``ctrl+]``, remappable) comes back, and the title says so.

Every tile's terminal draws on the app's one frame clock (``reading.frameclock``): a tick shares one frame's
parse budget among the views with output waiting, so three flooding tiles parse together what one flooding
view would, and the keys typed into the fourth reach its program as fast as with one view (PERF P18). The
single view lets go of its session while the tiles show, so nothing draws off screen.
"""

from .arrangement import MAX_TILES, Arrangement, arrange
from .tile import Tile
from .tilegrid import TileGrid

__all__ = ["MAX_TILES", "Arrangement", "Tile", "TileGrid", "arrange"]

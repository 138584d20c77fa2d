"""The terminal engine: the layer between a session's raw PTY bytes and what a dashboard draws.

``TerminalScreen`` (``emulator``) turns bytes into a grid of styled cells; ``LiveView`` (``liveview``) binds a
screen to a session's raw output ring (a ``RawSource``, ``source``) and feeds it on a per-frame time budget,
at the PTY sizes recorded in the ring, catching up from the tail (``catchup``) when the child writes faster
than the screen can parse. ``Engine`` (``engine``) is what the host uses: answers to PTY programs' queries
(``replies``) and screens built on demand (``ondemand``). Painters read rows of ``(text, Style)`` runs;
``ansi`` prints them back as ANSI text for ``python -m openclaw_tui.terminal``. Nothing here imports Textual
or Rich, so the engine can be tested, benchmarked and swapped on its own; it reads a session only through the
protocols of ``source`` (the raw ring and the PTY size), never the core's classes.

**Live views never slow the child** (``liveview``). The view never sits on the ingest path: the session drains
its PTY into a ``RawRing`` at full speed and the view only reads that ring, remembering the absolute offset it
parsed up to. The UI calls ``LiveView.advance`` once per frame; it parses at most ``budget_ms`` of bytes,
measured with ``perf_counter``. When more bytes wait than the budget can parse (judged by the measured parse
rate), or the ring already dropped bytes the view had not read, the view rebuilds its screen from the tail, so
what it shows is current within a frame and the child is never slowed. A screen exists only while a view does;
``close()`` lets both go.

**Watching never changes the program's terminal.** A view's screen always has the PTY's own size, taken from
the size marks in the ring. Every replay (live view, catch-up and on-demand screen alike, ``sizes``) starts at
the size in force where it starts and splits its feeds at the marks after that, so a screen rebuilt from the
ring is the screen a terminal shows after the same bytes and the same resizes, however late it attached (the
marks are the core's: ``openclaw_tui.core.session.rawring``).

**Catching up** (``catchup``). A flooding child writes far faster than any emulator parses, and PERF.md rules
out slowing the child, so a view that is behind skips bytes. The screen after a skip must still be right, so
the rebuild starts where the screen's content stops depending on what came before: the last full reset or
clear (``ESC c``, ``ESC[2J``, an alternate-screen switch), or, for scrolling output, the start of the last
screenful of lines. ``ESC[3J`` alone is not such a point: xterm and tmux only drop scrollback for it. Modes
set in the skipped bytes are carried over with ``ModeTracker``, the same cheap scanner the core uses, and the
colour in force at a line cut is carried by replaying the SGR sequences just before it. The rebuild starts at
the size the terminal had at that point; the caller applies the later resizes. All searches are
``bytes.rfind``/regex scans in C: a catch-up over a full ring costs about a millisecond.

**Screens on demand** (``ondemand``, ``replies``). When no view holds a screen (the host answering a
cursor-position query, an agent reading the screen of a full-screen program), nothing is kept: the screen is
rebuilt from the output the ring still holds, with the same catch-up a view uses when it falls behind and the
resizes recorded among the bytes, so it is exact for scrolling output and right again after a full-screen
program's next full redraw, it reports the size the program really has, and it costs a parse of at most about
``window`` bytes. The host answers every query the core's scanner finds (``openclaw_tui.core.vt.queries``),
whether or not a dashboard is watching, so a program never waits on a view and never gets two answers from two
views. Status and attribute queries have fixed answers. The cursor position needs a screen: one is built on
demand from the output just before the query, asked its cursor, and dropped. A program that floods queries
cannot stall the loop: past a time budget per second, a cursor query gets the previous cursor answer again,
which may be stale but never hangs it.

**Printing** (``ansi``). Each run is preceded by one SGR sequence that sets its whole style from a reset, so a
printed row never depends on the row before it; a row ends with a reset. Sequences are cached per ``Style``.
``python -m openclaw_tui.terminal`` prints rows plainly with trailing blanks stripped, or with ``--ansi`` this
way, for looking at recorded streams and checking the engine by hand.
"""

from openclaw_tui.core.exports import lazy_exports

TYPE_CHECKING = False
if TYPE_CHECKING:  # the face: what other packages may import (see core/exports.py)
    from .emulator import (
        DEFAULT_STYLE as DEFAULT_STYLE,
        Style as Style,
        TerminalModes as TerminalModes,
        TerminalScreen as TerminalScreen,
    )
    from .engine import Engine as Engine
    from .liveview import LiveView as LiveView
    from .matches import (
        Found as Found,
        LineIndex as LineIndex,
        Match as Match,
        SearchError as SearchError,
        compile_search as compile_search,
        find_all as find_all,
    )
    from .mousereport import Act as Act, mouse_report as mouse_report, tracking as tracking
    from .scrollback import Scrollback as Scrollback
    from .selection import Selection as Selection, Unit as Unit, char_at as char_at, column_of as column_of
    from .source import RawSource as RawSource

__all__, __getattr__ = lazy_exports(__name__, __file__)

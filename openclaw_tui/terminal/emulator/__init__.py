"""The terminal emulator: bytes in, a grid of styled cells out, as tmux draws them.

``parser`` splits the stream into text, controls and sequences; ``dispatch`` says which handler answers which
sequence (``editing``, ``moves``, ``scrolling``, ``modeswitch``) over the VT state (``state``) and its cells
(``grid``, ``cells``); ``reflow`` resizes as tmux does; ``screen`` is ``TerminalScreen``, and ``runs`` reads
rows out as ``(text, Style)`` runs (``style``). Nothing here imports Textual or Rich.

**tmux is the reference.** ``TerminalScreen`` draws what tmux draws for the same bytes (the fidelity tests
hold it to that): zero-width characters, wide characters, the alternate screen, background colour erase, ``CSI
S/T/b/Z/s/u``, DEC line drawing, and resizes as tmux does them. The emulator began as stock pyte and replaced
it piece by piece, for speed and for correctness (only pyte's DEC line-drawing table is still read, in
``cells``); the notes below say where it differs from what pyte did. There is no scrollback: that comes from
the session's retained text. Given ``on_reply``, a screen answers the queries programs send (cursor position,
device status and attributes); the host uses that through ``openclaw_tui.terminal.replies``, views never do.
Painters read a screen through ``display()``, ``row_runs()``, ``cursor_xy``, ``cursor_visible``, ``modes`` and
``take_dirty()``.

**State and handlers** (``state``, ``dispatch``). The state is declared once, in ``state``, with its types:
the grid, and the VT state over it (cursor, margins, modes, charsets, tabs; the cursor, the margins and the
saved cursor are the engine's own small types). The handlers that change it are plain functions over it,
grouped by what they do, and ``TerminalScreen`` is this state with a parser and a dispatch table that maps
each escape sequence to its handler (as pyte's tables map names to methods), by the names of
``openclaw_tui.core.vt.sequences``, the vocabulary the core's own scanner reads too. The parser hands the
screen a CSI's final byte and parameters; the tables map the final byte to the handler and to how many
parameters it takes, so a sequence with extra parameters (they happen) never reaches a handler that cannot
take them. A few handlers live in ``dispatch`` because they adapt a sequence to a screen: DECSTBM homes the
cursor even when it resets the margins (as xterm and tmux do, unlike pyte), and the device attribute and
status queries are answered through the screen's ``reply``.

**Parsing** (``parser``). Stock pyte walks a generator once per character; here a handful of regular
expressions match whole runs of printable text and whole CSI sequences, so a plain or coloured line costs a
few Python calls instead of one per byte, several times faster than pyte's. Bytes are decoded with an
incremental UTF-8 decoder (invalid bytes become U+FFFD, never an exception) and an escape sequence cut off at
the end of a read is held back until the rest arrives. The parser knows nothing of screen state: it calls the
screen's handlers by name.

**The grid** (``grid``). A type of its own, as alacritty keeps its grid apart from the terminal that drives
it: it knows rows and cells, never the cursor, the modes or the escape sequences (those are
``TerminalScreen``'s). Rows are list entries, so scrolling a region is one list splice instead of stock pyte's
row-by-row dict shuffle (the largest cost when output scrolls). Rows that scrolling, inserting and deleting
bring in are filled with the blank the caller gives (background colour erase). On the main screen the rows
scrolled off the top are kept in a short history, as tmux keeps them, only so that a resize can pull them back
or rewrap them; they are never shown. Moves and clears drop the ``wrapped`` mark of the rows next to where
they cut, exactly where tmux's line moves and clears drop it, because that mark decides how rows are rewrapped
after a resize. Erasing, inserting and deleting cells never leave half a wide character behind. The painter
reads ``dirty``.

**Cells** (``cells``). A cell is a character (plus any zero-width marks attached to it) and its ``Style``.
Wide characters fill two cells: the character itself and an empty *stub* after it, so column arithmetic stays
simple. Widths follow the per-code-point ``wcwidth`` table that the programs inside the terminal use (glibc),
and tmux's choices where the two differ: an unknown width counts as 1, and a character after a zero-width
joiner joins the previous cell. Cells are shared per (character, style) through a small cache, because
creating one tuple per drawn character was the largest single cost of stock pyte.

**Drawing and editing** (``editing``). Runs of narrow characters are written with one dict update instead of
one call per character; wide characters wrap before the last column and never leave half of themselves behind;
zero-width characters (combining marks, variation selectors, zero-width space, and whatever follows a
zero-width joiner) attach to the cell before the cursor instead of ending the draw; erasing, inserting and
deleting leave blanks in the background colour (as xterm and tmux do); ``ESC[3J`` clears only the history kept
for resizes, as in xterm and tmux; ``CSI b`` repeats the last character. Each row records how far programs
wrote into it and whether an autowrap ran it on, tmux's marks for rewrapping after a resize.

**Moving the cursor** (``moves``). After the last column is written the cursor waits past it (x == width)
until the next character wraps. tmux treats moves from that point as below: up and down land on the last
column, while backspace and left count from the wrap point itself (stock pyte took one step extra). With
origin mode, rows are counted from the top of the scroll region and the cursor stays inside it. ``CSI Z``
(back tab), which pyte lacks, lives in ``moves`` too.

**Scrolling** (``scrolling``). ``index`` fixes a pyte slip: a line feed below the scroll region moves the
cursor down, where pyte pulled it back up to the region's bottom. Rows brought in take the pen's background
colour, except the row an autowrap scrolls in (tmux scrolls in a default blank there). Inserted and deleted
lines leave the cursor where it is, as in tmux; ``CSI S``/``T``, which pyte lacks, live in ``scrolling``.

**Modes and the saved cursor** (``modeswitch``): the switches a program flips and the dashboard must honour.
Stock pyte records private modes but acts on few of them. Here the alternate screen really is a second grid
(``?47``/``?1047`` switch, ``?1049`` also saves and restores the cursor, as in xterm and tmux), the saved
cursor is one slot that each save overwrites (xterm), not pyte's stack, and the modes that change how keys,
pastes and clicks must be encoded are collected in ``TerminalModes``.

**Resizing** (``reflow``), so a screen that lived through a resize shows what tmux shows. tmux keeps a
screen's history and its visible rows as one list of lines. When the height shrinks it drops rows below the
cursor first and then moves rows from the top into the history (or deletes them, on the alternate screen,
which has no history); when it grows it pulls rows back from the history that scrolling put there, then adds
blank rows. When the width changes on the main screen, lines are rewrapped: a row that autowrapped is joined
with the rows it ran on into and cut again at the new width, and a row wider than the new width is cut into
several; the cursor keeps its place in the text. The alternate screen is not rewrapped (the program redraws
it), and the main screen saved under it is left alone until the program leaves it, when it is brought to the
new size. A row's width in use is up to the last cell a program wrote there (erasing does not lower it), as
tmux counts it. ``Lines`` runs these steps on history + visible rows, and the grid builds one for each resize;
it is only used on a resize, so it favours being plainly the same algorithm over speed.

**Styles and runs** (``style``, ``runs``). A screen hands its painter rows of ``(text, Style)`` runs rather
than one object per cell, which PERF.md measured at 14x cheaper per frame. Runs cover the full width (trailing
blanks included), wide characters appear once in the text (their stub cell adds nothing), and the cursor cell,
when given, is a run of its own with reverse video toggled, so a painter needs no cursor logic of its own.
``Style`` is independent of any rendering library. The painter (a Textual widget, or the ANSI printer of
``python -m openclaw_tui.terminal``) converts each ``Style`` once and caches the result, so ``Style`` objects
are interned: two cells with equal attributes share one object and the painter's cache hits by identity. SGR
sequences are applied in ``style`` too, with a small cache keyed on (style, parameters) because programs
repeat the same few colour changes millions of times.
"""

from openclaw_tui.core.exports import lazy_exports

TYPE_CHECKING = False
if TYPE_CHECKING:  # the face: what other packages may import (see core/exports.py)
    from .cells import char_width as char_width
    from .modeswitch import TerminalModes as TerminalModes
    from .runs import Run as Run
    from .screen import TerminalScreen as TerminalScreen
    from .style import DEFAULT_STYLE as DEFAULT_STYLE, Color as Color, Style as Style

__all__, __getattr__ = lazy_exports(__name__, __file__)

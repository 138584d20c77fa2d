"""The VT vocabulary and the cheap scans of a child's raw output that the core makes on the ingest path.

``sequences`` names every escape sequence and terminal mode the product reads or answers (the terminal engine
reads them here too). ``modes`` tracks the modes that key encoding and paste need, ``queries`` finds the
questions a real terminal would answer, and ``plaintext`` turns a stream into the plain text an agent reads.
All four are pure (no I/O).

**One vocabulary.** Programs talk to their terminal in numbers and single characters (``ESC [ ? 1049 h``,
``ESC [ 6 n``); the core scans a few of them on the ingest path and the terminal engine
(``openclaw_tui.terminal``) acts on all of them. Both read them from ``sequences``, by name, so no bare mode
number or final byte stands anywhere else. Names follow the standards' mnemonics (ECMA-48, DEC) where the
reader will look them up, with the plain meaning beside each. The vocabulary lives on this side because the
terminal package may import the core, never the reverse.

**Scans on the ingest path.** A full emulator is too slow to sit where a child's output arrives, so the core
only looks for what it must act on at once, and every scan keeps the last few bytes so a sequence split across
two reads is still seen. ``modes`` looks for private-mode set/reset sequences (``ESC[?<n>;<m>h`` / ``l``): key
encoding needs to know whether the program asked for application cursor keys (``ESC[?1h``), and the
dashboard's paste whether it enabled bracketed paste (``ESC[?2004h``); the terminal engine uses the same
scanner to carry modes over bytes it skips when catching up. ``queries`` finds what programs ask the terminal
(where the cursor is, ``ESC[6n``, ``ESC[?6n``; whether it is fine, ``ESC[5n``; what it is, ``ESC[c``,
``ESC[>c``) and then wait for: with nobody answering they hang or stall on a timeout, so the session finds
each query as bytes arrive, whether or not a dashboard is watching, and hands it to the host's replier (the
terminal engine knows the answers; the core only finds the questions). So as not to slow a flood down, a chunk
bigger than ``FULL_SCAN`` is searched only at its end, which is where a program that waits for its answer
leaves the question.

**The agent's text.** Programs write bytes meant for a terminal: UTF-8 text interleaved with colour codes,
cursor movement, window titles and carriage-return progress bars. An agent needs the words, not the paint, so
``plaintext`` decodes UTF-8 incrementally (invalid bytes become U+FFFD and never raise), removes every ANSI/VT
escape sequence (CSI, OSC, DCS/SOS/PM/APC strings and the short ``ESC x`` forms, in 7- and 8-bit spellings),
normalises line endings, and shows any remaining control character as a visible ``\\xNN`` escape so that
nothing invisible reaches the agent. A sequence, a UTF-8 character or a ``\\r\\n`` cut in two by a read is
held back and finished on the next feed, so the result never depends on where the reads split the stream. The
common case (a chunk with no escape or control character) is one regex scan, and the rest is done with a few
precompiled substitutions rather than per-character Python loops.
"""

from ..exports import lazy_exports

TYPE_CHECKING = False
if TYPE_CHECKING:  # the face: what other packages may import (see core/exports.py)
    from . import sequences as sequences
    from .modes import ModeTracker as ModeTracker
    from .plaintext import StreamText as StreamText
    from .queries import QueryScanner as QueryScanner

__all__, __getattr__ = lazy_exports(__name__, __file__)

"""The VT vocabulary and the cheap scans of a child's raw output that the core makes on the ingest path.

``sequences`` names every escape sequence and terminal mode the product reads or answers (the terminal
engine reads them here too). ``grammar`` says where each sequence starts and ends; every reader of raw
output asks it: ``plaintext`` (the plain text an agent reads), ``modes`` (the modes key encoding and paste
need), ``queries`` (the questions a real terminal would answer), and the terminal engine's parser and
catch-up. So the agent's text and the dashboard's screen end every sequence at the same byte.

The grammar is tmux's (3.3a, ``input.c``; the screen must equal tmux's), checked byte for byte against a
tmux pane by ``tests/terminal/test_grammar_golden.py``:

- Only ESC introduces a sequence. In a UTF-8 terminal U+0080..U+009F (``C2 9B`` ...) are characters that
  tmux drops, and a raw 0x9B is invalid UTF-8 (tmux drops it; our contract shows U+FFFD): neither is a CSI.
- CSI (``ESC [``) and ``ESC`` with intermediates end at their final byte. A C0 control inside acts at once
  and the sequence goes on; DEL and anything past ASCII are ignored; CAN and SUB abort it (taken with it);
  an ESC aborts it and starts the next sequence.
- OSC (``ESC ]``) ends at BEL, at CAN or SUB, or at ESC (``ESC \\`` is then a no-op of its own); U+009C is
  part of its body. SOS, PM, APC and tmux's title (``ESC X``, ``ESC ^``, ``ESC _``, ``ESC k``) end the same
  way, BEL excepted, which is part of them.
- DCS (``ESC P``) parameters are aborted like a CSI's; once its body begins only ``ESC \\`` ends it: CAN,
  SUB and BEL are body, and ESC pairs with the byte after it (tmux passthrough doubles ESC).
- Nothing ends a sequence for its length: tmux buffers up to 1 MiB of a string, 63 parameter characters
  and 3 intermediates, and reads a longer one to its end without acting on it. ``MAX_HELD`` (1 MiB) is the
  one limit on what any reader here holds of an unfinished sequence between reads; a reader that needs no
  body carries only the state, which reads on exactly as the whole would.
- Not followed: tmux also abandons a string still open after 5 seconds. Readers here depend on the bytes
  only, never on when they arrived, so the text never depends on how the reads were timed.

**One vocabulary.** Programs talk to their terminal in numbers and single characters (``ESC [ ? 1049 h``,
``ESC [ 6 n``); the core scans a few of them on the ingest path and the terminal engine
(``openclaw_tui.terminal``) acts on all of them. Both read them from ``sequences``, by name, so no bare mode
number or final byte stands anywhere else. Names follow the standards' mnemonics (ECMA-48, DEC) where the
reader will look them up, with the plain meaning beside each. The vocabulary lives on this side because the
terminal package may import the core, never the reverse.

**Scans on the ingest path.** A full emulator is too slow to sit where a child's output arrives, so the core
only looks for what it must act on at once, and every scan carries the
grammar's state of an unfinished sequence, so one split across two reads is still seen. ``modes`` looks for private-mode set/reset sequences (``ESC[?<n>;<m>h`` / ``l``): key
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
``plaintext`` decodes UTF-8 incrementally (invalid bytes become U+FFFD and never raise), removes every escape
sequence where the grammar ends it, normalises line endings, and shows any remaining control character as a
visible ``\\xNN`` escape so that nothing invisible reaches the agent. The result never depends on where the
reads split the stream. The common case (a chunk with no escape or control character) is one regex scan.
"""

from ..exports import lazy_exports

TYPE_CHECKING = False
if TYPE_CHECKING:  # the face: what other packages may import (see core/exports.py)
    from . import grammar as grammar, sequences as sequences
    from .modes import ModeTracker as ModeTracker
    from .plaintext import StreamText as StreamText
    from .queries import QueryScanner as QueryScanner

__all__, __getattr__ = lazy_exports(__name__, __file__)

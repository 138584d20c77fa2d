"""The VT vocabulary: a name for every escape sequence and terminal mode the product reads or answers.

Programs talk to their terminal in numbers and single characters (``ESC [ ? 1049 h``, ``ESC [ 6 n``); the
core scans a few of them on the ingest path (:mod:`.modes`, :mod:`.queries`) and the terminal engine acts
on all of them (``openclaw_tui.terminal``). Both read them here, by name, so no bare mode number or final
byte stands anywhere else. Names follow the standards' mnemonics (ECMA-48, DEC) where the reader will look
them up, with the plain meaning beside each. Pure constants: the terminal package may import the core, never
the reverse, so the vocabulary lives on this side.
"""

from __future__ import annotations

# -- private (DEC) modes: ESC [ ? n h sets, ESC [ ? n l resets ------------------------------------------
APP_CURSOR_KEYS = 1  # DECCKM: cursor keys send ESC O A instead of ESC [ A
COLUMNS_132 = 3  # DECCOLM: 132/80 columns (the pane keeps its width: only a clear and home remain)
ORIGIN = 6  # DECOM: cursor addressing relative to the scroll region
AUTOWRAP = 7  # DECAWM: text reaching the last column runs on to the next row
MOUSE_X10 = 9  # mouse reports on button press
CURSOR_SHOWN = 25  # DECTCEM: the cursor is visible
ALT_SCREEN = 47  # the alternate screen (no cursor save)
MOUSE_CLICKS = 1000  # reports on press and release
MOUSE_DRAG = 1002  # ... and on motion with a button held
MOUSE_MOTION = 1003  # ... and on any motion
MOUSE_UTF8 = 1005  # reports encoded in UTF-8
MOUSE_SGR = 1006  # reports as ESC [ < b ; x ; y M / m
MOUSE_URXVT = 1015  # reports as ESC [ b ; x ; y M
ALT_SCREEN_1047 = 1047  # the alternate screen, xterm's second spelling
SAVE_CURSOR = 1048  # set: save the cursor (DECSC); reset: restore it (DECRC)
ALT_SCREEN_SAVE_CURSOR = 1049  # save the cursor, then the alternate screen; leaving restores both
BRACKETED_PASTE = 2004  # pastes arrive between ESC [ 200 ~ and ESC [ 201 ~

ALT_SCREENS = (ALT_SCREEN, ALT_SCREEN_1047, ALT_SCREEN_SAVE_CURSOR)
MOUSE_TRACKING = (MOUSE_X10, MOUSE_CLICKS, MOUSE_DRAG, MOUSE_MOTION)  # which events are reported
MOUSE_ENCODINGS = (MOUSE_UTF8, MOUSE_SGR, MOUSE_URXVT)  # how reports are written
INPUT_MODES = (APP_CURSOR_KEYS, BRACKETED_PASTE, *MOUSE_TRACKING, *MOUSE_ENCODINGS)
"""Modes that change what a terminal sends (keys, pastes, clicks): carried over when a view skips bytes."""

# -- ANSI modes: ESC [ n h / ESC [ n l ---------------------------------------------------------------
INSERT = 4  # IRM: drawn text pushes the rest of the row right
NEWLINE = 20  # LNM: a line feed also returns the carriage

# -- device status reports: ESC [ n n (and ESC [ ? n n) ------------------------------------------------
STATUS_REPORT = 5  # "are you fine?": answered ESC [ 0 n
CURSOR_REPORT = 6  # "where is the cursor?": answered ESC [ row ; col R

# -- CSI final bytes (ESC [ params final) -------------------------------------------------------------
ICH = "@"  # insert blank characters
CUU = "A"  # cursor up
CUD = "B"  # cursor down
CUF = "C"  # cursor forward
CUB = "D"  # cursor back
CNL = "E"  # cursor to the start of a following line
CPL = "F"  # cursor to the start of a preceding line
CHA = "G"  # cursor to a column
CUP = "H"  # cursor position
CHT = "I"  # forward tabs
ED = "J"  # erase in display
EL = "K"  # erase in line
IL = "L"  # insert lines
DL = "M"  # delete lines
DCH = "P"  # delete characters
SU = "S"  # scroll up
SD = "T"  # scroll down (with five parameters: xterm's mouse highlight)
ECH = "X"  # erase characters
CBT = "Z"  # back tabs
HPA = "`"  # cursor to a column
HPR = "a"  # cursor forward
REP = "b"  # repeat the last character
DA = "c"  # device attributes (ESC [ > c: secondary)
VPA = "d"  # cursor to a row
VPR = "e"  # cursor down
HVP = "f"  # cursor position
TBC = "g"  # clear tab stops
SM = "h"  # set mode
RM = "l"  # reset mode
SGR = "m"  # select graphic rendition (colours and attributes)
DSR = "n"  # device status report
DECSTR = "p"  # soft reset, after the intermediate "!"
DECSTBM = "r"  # scroll region (top and bottom margins)
SCOSC = "s"  # save the cursor
SCORC = "u"  # restore the cursor

# -- ESC finals (ESC final, or ESC intermediate final) -----------------------------------------------
RIS = "c"  # full reset
IND = "D"  # index: down a row, scrolling at the bottom margin
NEL = "E"  # next line
HTS = "H"  # set a tab stop
RI = "M"  # reverse index
DECSC = "7"  # save the cursor
DECRC = "8"  # restore the cursor (after "#": DECALN, the screen filled with E)
DECKPAM = "="  # application keypad
DECKPNM = ">"  # normal keypad
G0, G1 = "(", ")"  # intermediates designating the two character sets
DEC_GRAPHICS = "0"  # the line-drawing set (ESC ( 0)

"""A test child that puts its terminal in raw mode and reports, in hex, every byte it receives.

Run as ``python rawchild.py N [MODE]``: prints READY (after optionally switching on application cursor
keys with MODE=app, in two separate writes so the sequence is split), reads until N bytes arrived, then
prints ``GOT <hex>`` and exits.
"""

import os
import sys
import termios
import tty

want = int(sys.argv[1])
mode = sys.argv[2] if len(sys.argv) > 2 else ""
fd = sys.stdin.fileno()
old = termios.tcgetattr(fd)
tty.setraw(fd)
try:
    if mode == "app":
        os.write(1, b"\x1b[?")
        os.write(1, b"1h")
    os.write(1, b"READY\r\n")
    got = b""
    while len(got) < want:
        got += os.read(fd, want - len(got))
    os.write(1, b"GOT " + got.hex().encode() + b"\r\n")
finally:
    termios.tcsetattr(fd, termios.TCSADRAIN, old)

"""Commands whose real work no pattern can see: inline code, wrappers that run another command, and REPLs.

``python -c CODE``, ``sh -c``, ``node -e`` run code their arguments carry; ``env``, ``sudo``, ``xargs``,
``nohup``, ``timeout`` and the like run another command named in theirs; ``find -exec`` runs commands;
a shell or an interpreter under a PTY reads what is typed later, which no approval ever sees. For such a
command "allow always" is not offered (the operator is told why), and an allowlist entry allows it only
with an ``argPattern``, which spells out the arguments.
"""

from __future__ import annotations

import os
import re

SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "mksh", "fish", "csh", "tcsh", "ash", "busybox"})
INLINE_FLAGS = {  # interpreter -> the options whose argument is code
    "python": ("-c",), "pypy": ("-c",), "node": ("-e", "--eval", "-p", "--print"), "nodejs": ("-e", "--eval"),
    "bun": ("-e", "--eval"), "deno": ("eval",), "perl": ("-e", "-E"), "ruby": ("-e",), "php": ("-r",),
    "lua": ("-e",), "Rscript": ("-e",), "osascript": ("-e",), "pwsh": ("-c", "-Command"),
    "awk": (), "gawk": (), "mawk": (), "nawk": (),  # their program is inline code unless given with -f
}
WRAPPERS = frozenset({"env", "sudo", "doas", "su", "xargs", "nohup", "timeout", "nice", "ionice", "setsid",
                      "stdbuf", "chroot", "unshare", "nsenter", "flock", "time", "watch", "strace", "ltrace",
                      "command", "builtin", "exec", "eval", "source", ".", "parallel", "script", "runuser",
                      "pkexec", "chrt", "taskset", "systemd-run"})
FINDERS = {"find": ("-exec", "-execdir", "-ok", "-okdir"), "fd": ("-x", "--exec", "-X", "--exec-batch"),
           "fdfind": ("-x", "--exec", "-X", "--exec-batch")}
REPLS = frozenset({"ssh", "telnet", "psql", "mysql", "sqlite3", "redis-cli", "mongosh", "irb", "ghci", "R",
                   "julia", "gdb", "lldb"})
_VERSIONED = re.compile(r"^(python|pypy|ruby|perl|php|lua|node)[0-9.]*$")


def program_name(argv0: str) -> str:
    """The program's family name: ``/usr/bin/python3.11`` is ``python``."""
    name = os.path.basename(argv0)
    found = _VERSIONED.match(name)
    return found.group(1) if found else name


def unreviewable(argv: tuple[str, ...], real: str | None, pty: bool) -> str | None:
    """Why this segment's work cannot be judged from its argv (None when it can)."""
    names = {program_name(argv[0]), *([program_name(real)] if real else [])}
    args = argv[1:]
    for name in sorted(names):
        if name in WRAPPERS:
            return f"{name} runs another command given in its arguments"
        if name in SHELLS and ("-c" in args or any(a.startswith("-") and "c" in a[1:] and not a.startswith("--")
                                                   for a in args)):
            return f"{name} -c runs inline shell code"
        flags = INLINE_FLAGS.get(name)
        if flags is not None and (not flags and "-f" not in args or any(a in flags for a in args)):
            return f"{name} {'/'.join(flags) or 'with an inline program'} runs inline code"
        finder = FINDERS.get(name)
        if finder and any(a in finder for a in args):
            return f"{name} {'/'.join(a for a in args if a in finder)} runs other commands"
        bare = all(a.startswith("-") for a in args) or "-i" in args  # no script: it reads its terminal
        if pty and (name in REPLS or (name in SHELLS or name in INLINE_FLAGS) and bare):
            return (f"{name} under a pty reads what is typed later (write, send-keys, paste), which no "
                    "approval reviews")
    return None

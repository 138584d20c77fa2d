"""The engine: sessions, the exec/process tools and their guarantees, on asyncio with no UI imports.

Its packages, bottom to top, each importing only those below it (an import-linter contract): ``vt`` (the VT
vocabulary and the cheap scans of raw output) and ``config`` (settings); ``procs`` (processes as the kernel
shows them); ``containment`` (which processes are a session's, and ending them with proof); ``session`` (one
supervised command and its parts, and the registry); ``launch`` (from an exec request to a supervised child),
``journal`` (the durable record of sessions), ``calls`` (a call and its result, the one shape on every
surface) and ``attention`` (telling the operator of sessions that need them: hooks, rules, mutes); ``tools``
(``exec`` and ``process``); and ``host`` (the one object every surface talks to). Each package's docstring
explains its layer.

Nothing here imports Textual or Rich (import-linter and ``tests/test_architecture.py`` hold it), and nothing
blocks the event loop a host serves every frontend from: what is slow runs in a thread (the journal's writer,
every scan of all of ``/proc``, the login shell's PATH, the sandbox probe, the decoding of a very large call),
and what stays on the loop is a small read or write. What the core needs from above (the terminal engine that
answers PTY programs' queries, the nodes that run calls elsewhere) is a protocol injected into the host, so
the core never imports its implementations. Each package offers other packages only the names its ``__init__``
lists, loaded on first use (:mod:`.exports`), so a command that needs one name does not pay for its whole
package (``openclaw-tui call`` starts in a few tens of milliseconds; the whole core takes ten times that to
import). mypy checks the core strictly.
"""

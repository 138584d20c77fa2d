"""The dashboard in a browser, for the operator away from the host's terminal: ``openclaw-tui web``.

It imports aiohttp and textual-serve (the ``web`` extra), so nothing else in the product imports this package:
the terminal dashboard, ``call`` and ``serve`` never load them. It stands on the mirror and the wire, as the
other frontends do.

**One dashboard per tab** (``apptabs``). Each browser tab is ``openclaw-tui attach`` in a process of its own,
driven through Textual's web driver by textual-serve's ``AppService``: the same dashboard, a client of the
host serving this user's socket, never a second host. Closing the tab asks that dashboard to quit (it
detaches; the sessions keep running) and its process group is ended if it lingers. At most ``--max-tabs``
(4) run at once; one more is refused with a page that says why.

**Nobody else gets in** (``webgate``). textual-serve has neither authentication nor an Origin check, and any page
the user opens could reach a server on localhost. So every route, the files and the WebSocket included,
refuses a request without the token (401) before any handler runs, so no app process starts for it. The token
(256 bits, or the one ``--token-file`` keeps) is printed once, in the URL, and the first visit moves it into
a cookie (``HttpOnly``, ``SameSite=Strict``, named after the port) and out of the address bar. The WebSocket
also refuses an ``Origin`` other than the page's own, or none (403). Every response carries a
``Content-Security-Policy`` allowing this origin alone (the fonts ship with textual-serve and are served from
here; textual-serve's page linked them from an outside host), ``X-Frame-Options: DENY`` and
``Referrer-Policy: no-referrer``. A refusal is one line on stderr; the token appears only in the first.

**The page** (``pagehtml``, ``assets/``). textual-serve's client script, stylesheet and fonts, served from
its package, with a page of our own: textual-serve's, less the outside font link and the inline script the
policy forbids, plus a small script that keeps the title current. The title (``titlefeed``) counts the
sessions waiting for input and the exec approvals waiting for the operator, from one mirror of the host (not
an approver) streamed to every tab as server-sent events; it counts this host's, not the nodes'.

**Why not textual-serve's ``Server``** (``webserve``). Its handlers are what must change: the page (the
outside font, inline script), the WebSocket (no checks, a shell per tab, a stop that waits forever), the run
(no TLS; a logo on stdout). A subclass would have replaced all but its download route, which the dashboard
does not use; so this is a small aiohttp application of its own, reusing textual-serve's client files and its
``AppService``, which speaks the app protocol.
"""

from openclaw_tui.core.exports import lazy_exports

TYPE_CHECKING = False
if TYPE_CHECKING:  # the face: what other packages may import (see core/exports.py)
    from .titlefeed import title_for as title_for
    from .webserve import WebOptions as WebOptions, serve_web as serve_web
    from .webstart import (
        MIN_TOKEN_CHARS as MIN_TOKEN_CHARS,
        address as address,
        listening_socket as listening_socket,
        log as log,
        new_token as new_token,
        token_problem as token_problem,
    )

__all__, __getattr__ = lazy_exports(__name__, __file__)

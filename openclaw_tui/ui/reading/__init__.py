"""Reading a session's output: scrolling back through its history, searching it, selecting it with the mouse.

**Frames** (``frameclock``). One clock per app calls every terminal view that has something to draw, at most
``FPS`` times a second, and shares one frame's parse budget among them: a single view, a zoomed one and four
tiles cost the loop the same.

**Reading back** (``backread``, ``pager``). Scrolled, searched or selected in, the terminal widget stands
still on a :class:`~.pager.TerminalPager`: lines are held by their numbers, so new output never moves what
is on view. The whole history is replayed from the raw ring in a worker thread, together with the text index
a search scans (``terminal.scrollback``), so the first search over a full ring reads no line on the loop; both
are kept current a slice per frame while the view reads. A history line is final (only a resize rewraps it),
so it is drawn into a strip once and kept (``STRIPS_KEPT`` of them); after each page step the page beyond is
drawn ahead, once the frame is on screen, so a page step's frame only lays out strips already drawn.

**Painting** (``paint``) lays the matches, the current match and the selection over a line's own styles;
``linelog`` is the same reading for the line-based views (the pipe view and the log view); ``pointer`` is the
mouse half of selection and ``searchbar`` the search input.
"""

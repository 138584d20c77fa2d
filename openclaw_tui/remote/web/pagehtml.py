"""The page each tab loads: textual-serve's client (its script, xterm's stylesheet, the fonts it ships), and
the product's own small script and stylesheet, all from this origin.

It is textual-serve's page, less what the policy forbids: the outside font link and the inline script.
"""

from __future__ import annotations

from html import escape

PAGE = """<!DOCTYPE html>
<html>
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>openclaw-tui</title>
    <link rel="stylesheet" href="/static/css/xterm.css">
    <link rel="stylesheet" href="/assets/page.css">
    <script src="/assets/page.js"></script>
    <script src="/static/js/textual.js"></script>
  </head>
  <body>
    <div class="dialog-container intro-dialog">
      <div class="shade"></div>
      <div class="intro"><div>openclaw-tui</div>
        <button type="button" id="start" class="restart">Start</button></div>
    </div>
    <div class="dialog-container closed-dialog">
      <div class="shade"></div>
      <div class="intro"><div class="message">The dashboard closed: it detached, and the sessions go on
        running on the host.</div><button type="button" class="restart">Open it again</button></div>
    </div>
    <div id="terminal" class="textual-terminal" data-session-websocket-url="{websocket}"
         data-font-size="{font_size}"></div>
  </body>
</html>
"""


def page(host: str, secure: bool, ticket: str, font_size: str | None) -> str:
    """The page for a request to ``host`` (its Host header): its WebSocket, on the same origin, claims the
    dashboard started for it by ``ticket``."""
    size = font_size if font_size and font_size.isdigit() and 6 <= int(font_size) <= 48 else "16"
    websocket = f"{'wss' if secure else 'ws'}://{host}/ws/{ticket}"
    return PAGE.format(websocket=escape(websocket, quote=True), font_size=size)

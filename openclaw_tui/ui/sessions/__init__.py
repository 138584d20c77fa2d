"""The session part of the screen: the list of sessions, the selected session's view, and their actions.

``workspace`` is the sessions pane (``pane``: the filter bar of ``filters`` over the list of ``list``) over
the session view (``panel``), and the operator's actions on the selected session. The list lays out what
``rows`` and ``columns`` decide; the view shows a PTY session in the terminal widget (``terminal_view``), a
pipe session in the stream log (``stream_log``), or either through the log pane (``log_pane``), with the
inputs as ``inputs`` words them. ``keybytes`` turns the keys type-through forwards into bytes.

**Actions** (``workspace``). Every action goes through ``host.call(..., agent=None)`` exactly as an agent's
would (so it is validated the same way and recorded as the operator's input), except type-through keystrokes,
which the terminal widget hands to the host's input path directly, for latency. Slow actions (kill waits for
the process group to be gone) run in workers; a failed result is shown as an error toast with the host's own
message.

**The list** (``list``, ``rows``, ``columns``, ``filters``). One row per session, newest first, drawn with the
Line API: a row is made only when it is on screen, so a thousand sessions cost what the dozen visible rows
cost, and the once-a-second runtime tick repaints only when a visible row changed (never a relayout of the
screen). The cursor belongs to a session id, not a row number, so it stays on its session as rows come and go;
moving it posts ``Selected``. An empty list says why: no sessions yet, or nothing matches the filter. What a
row says is decided by pure functions over a ``SessionView``, so the widget only lays out. A session is
*waiting* as the host decides it (``waiting_for_input``: by the kernel's evidence that it is blocked reading
its terminal, ``waiting_reason``, within about a second, or by the 15 s idle rule); the list only words the
reason. A session that exited non-zero is ``completed`` for agents (the contract's word), but to the operator
it failed: its exit code is red, the "failed" filter keeps it and the header counts it as failed. With nodes,
a node column comes first and says which node runs the session (``local``: this machine), and the rows of a
node that does not answer are greyed, as last seen. The columns follow the width: at 120 columns every column
shows at its natural width; a narrower terminal loses what the session view's title repeats anyway (where it
runs, pty or pipe), then narrows the gaps and shortens the agent and the name, and only then anything an
operator decides by: the status and the exit code stay visible down to 60 columns. With nodes, the node column
is as wide as the longest node name, and the id column widens by as much, since ids then read ``NODE/ID``; the
node column goes early when room runs short, as the id repeats the node. Any width left over goes to the name.
The layout is pure, so the list and the tests agree on it. The filter bar above the list holds free text, a
state (all, running, waiting, finished, failed) and, with nodes configured, a node (all, local, then each
node); it owns the filter's state and says so with ``Changed``, while the keys that drive it live on the
sessions pane, so they work while the list has focus. In the text box, Enter keeps the text and goes back to
the list; Escape clears it and goes back.

**The session view** (``panel``): a title line, the session's output, and the last inputs with who sent them.
PTY sessions are drawn by the terminal widget, pipe sessions by the stream log; the log pane replaces either
while toggled on. Only the body on screen is attached to its session, so a session nobody looks at costs the
UI nothing. The banner shows while type-through is on.

**The terminal widget** (``terminal_view``): a PTY session drawn from the terminal engine with Textual's Line
API. A ``LiveView`` keeps a screen current with the session's raw output; the widget advances it at most
``FPS`` times a second, only when output arrived and the previous frame is on screen, then refreshes just the
rows the screen marked dirty (plus the rows the cursor left and entered). Each row is a few ``(text, Style)``
runs; terminal styles are converted to Rich styles once and cached. Watching never changes the agent's
terminal: the screen always has the PTY's own size. When the pane is smaller, the widget shows the part around
the cursor (as tmux shows a window larger than its client) and says so on its last row; when it is larger, the
rest stays blank. The PTY is resized only while the operator types through (it then fits the pane, and gets
its earlier size back when type-through ends) or by ``fit``. In type-through mode every key and paste goes to
the session as the operator's input, by the host's one input path (so a key typed right after a sandboxed
start still reaches the program, and a full input queue is refused as it is for agents); Ctrl+] (the telnet
escape, which programs rarely need) leaves it, or the key the keymap binds. Textual names keys its own way
(``ctrl+up``, ``f5``, ``shift+tab``), so ``keybytes`` maps named keys onto the tmux tokens the core's
``encode_keys`` already encodes (xterm sequences, application cursor mode included) and sends printable
characters as typed (the send-keys prompt's line is parsed in the core, by the agents' own key parser).

**The stream log** (``stream_log``): a pipe session's output as a scrolling log, stderr in its own colour,
drawn with the Line API. The session keeps its retained output as stream-tagged chunks (newest ``cap``
characters). The log keeps its own list of lines and, on each sync, asks the output only for what came since
the characters it has seen (``Output.since``), so a chatty child costs the UI what it printed, not what was
retained. When more arrived than the output still holds, it rebuilds from the retained tail. It follows the
end unless the operator scrolled up, and follows again once they scroll back to the bottom; the flag is kept
explicitly, since comparing offsets is wrong while the log is not laid out yet (hidden, or just shown).

**The log pane** (``log_pane``): exactly what an agent's ``process log`` returns, paged the same way, plus who
typed what. It calls the host's ``log`` action as the operator, so the window, the paging hint, the stdin
state and the waiting hint are the agent's own; the input transcript (``details.inputs``) is listed below with
the sender of each input, agent or operator. ``[``/``]`` page to older/newer lines (the arrows left and right
do the same, unlisted: the footer names ``[`` and ``]``, as the README and the help do).

**Inputs as a person reads them** (``inputs``). The host records each input's first bytes as text
(``preview``) and never the text typed at a password prompt (that preview is ``•••``), so the preview is shown
as recorded and never derived again from what was sent. What a terminal would act on is named: an arrow key's
``\\x1b[A`` is ``↑``, Ctrl-C is ``^C``, ``\\x1b[21~`` is ``F10``, Enter, Tab and Backspace are ``⏎ ⇥ ⌫``. The
names are found by encoding every named key with the core's own key encoder, in both cursor-key modes, so they
agree with send-keys.
"""

"""What the tests share: plain helpers, imported like any module; fixtures and hooks stay in the conftests.

Each module is named for what it holds. ``waiting`` is the suite's one way to wait (on a condition, with a
generous deadline). ``hosts`` builds hosts on test settings, serves them on sockets of their own and closes
them within a deadline; ``sessions`` starts a background session over any surface (``start_background``: a
host's, the socket client's, a mirror's or a rig's ``call``, or an MCP session through ``mcpclients``) and
reads sessions back; ``pilots`` drives the dashboard with a Textual pilot. Rigs run the real thing: ``serves``
(``openclaw-tui serve``, to kill, restart or re-execute), ``sshrig`` (sshd and node hosts), ``tmuxpane`` (the
dashboard in a real terminal) and ``tmuxreplay`` (tmux as the reference terminal, read back by ``sgrcells``,
which shares no code with the engine). ``isolation`` keeps a run apart from the machine, ``orphans`` holds
the escape routes a job can take, and ``badcalls``, ``hostile``, ``rawsources`` and ``smalldisk`` the
inputs, sources and full disks the tests need. Nothing here depends on where the suite runs: sockets go in
short folders of their own (``hosts.socket_folder``), never under ``tmp_path``, whose length ``--basetemp``
decides. The benchmarks use the rigs too.
"""

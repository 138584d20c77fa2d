"""The ``openclaw-tui`` command: the dashboard by default, and the other surfaces as subcommands (listed in
the package docstring).

Each surface is a thin layer over the host: this module only parses arguments and hands over, importing
nothing before it is needed.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # not imported from `typing`, which would cost each `openclaw-tui call` a few ms
if TYPE_CHECKING:
    import argparse
    from typing import Any


def build_parser() -> argparse.ArgumentParser:
    import argparse

    parser = argparse.ArgumentParser(prog="openclaw-tui", description="Run and supervise the shell jobs agents start.")
    parser.add_argument("--config", help="TOML config file (default: $OPENCLAW_TUI_CONFIG or ~/.config/openclaw-tui/config.toml)")
    parser.add_argument("--demo", action="store_true", help="start example sessions so there is something to watch")
    parser.add_argument("--version", action="store_true",
                        help="print this command's version and that of the host serving the socket")
    sub = parser.add_subparsers(dest="command")
    serve = sub.add_parser("serve", help="run the host headless on its socket until a signal ends it")
    serve.add_argument("--reexec", action="store_true",
                       help="tell the running host to re-execute itself in place on the code installed now, "
                            "keeping every session (SIGUSR2 to the host does the same)")
    serve.add_argument("--resume", type=int, metavar="FD", help=argparse.SUPPRESS)  # the new image of a re-exec
    serve.add_argument("--check-resume", metavar="FORMAT", help=argparse.SUPPRESS)  # a re-exec's preflight
    attach = sub.add_parser("attach", help="open the dashboard on a running host, never starting one")
    attach.add_argument("--node", help="the host of this configured node ([nodes.NAME]), over ssh")
    mcp = sub.add_parser("mcp", help="MCP server on stdio exposing the exec and process tools")
    mcp.add_argument("--agent", help="scope for this agent's sessions (default: the MCP client's name)")
    call = sub.add_parser("call", help="run one tool call (JSON) against the running host")
    call.add_argument("json", metavar="CALL",
                      help='the tool call, e.g. \'{"tool": "exec", "command": "ls"}\'; - reads it from '
                           "stdin, @FILE from a file (for calls too large for an argument)")
    call.add_argument("--agent", default="cli", help="scope the call runs in (default: cli)")
    call.add_argument("--operator", action="store_true",
                      help="act as the operator, who sees every agent's sessions (refused inside a session)")
    bridge = sub.add_parser("bridge", help="connect stdin/stdout to this machine's host socket (for ssh from a node client)")
    bridge.add_argument("--socket", help="the host's socket (default: as every command finds it)")
    bridge.add_argument("--no-start", action="store_true", help="fail instead of starting a host when none serves")
    sub.add_parser("nodes", help="list the configured nodes and whether each answers")
    approvals = sub.add_parser("approvals", help="list (and decide) the exec approval requests waiting for "
                               "the operator")
    approvals.add_argument("--json", action="store_true", help="print the requests as a JSON array")
    approvals.add_argument("--history", action="store_true", help="list past requests and their decisions")
    decide = approvals.add_subparsers(dest="decision")
    approve = decide.add_parser("approve", help="approve a request: its command starts")
    approve.add_argument("id", metavar="ID", help="the approvalId, or the reserved sessionId")
    approve.add_argument("--always", action="store_true",
                         help="also allow each program with exactly these arguments from now on (the agent's "
                              "allowlist in exec-approvals.json)")
    deny = decide.add_parser("deny", help="deny a request: its command never runs")
    deny.add_argument("id", metavar="ID", help="the approvalId, or the reserved sessionId")
    deny.add_argument("--reason", help="why, for the agent (its session's end says it)")
    sandbox = sub.add_parser("sandbox", help="list what a sandboxed run would not see here (credential stores, "
                                             "secret variables) and what it sees by the operator's choice")
    sandbox.add_argument("--agent", help="with this agent's settings ([agents.NAME.tools.exec.sandbox])")
    _operator_commands(sub)
    _web_command(sub)
    return parser


def _web_command(sub: Any) -> None:
    web = sub.add_parser("web", help="serve the dashboard to a browser, behind a token (each tab an attach)")
    web.add_argument("--port", type=int, default=8765, help="TCP port (default 8765; 0: any free one)")
    web.add_argument("--bind", default="127.0.0.1",
                     help="address to listen on (default 127.0.0.1; others need --tls-cert/--tls-key or --insecure)")
    web.add_argument("--max-tabs", type=int, default=4, help="app processes at once, one per tab (default 4)")
    web.add_argument("--token-file", help="keep the token in this file (made, mode 600, when missing)")
    web.add_argument("--tls-cert", help="serve https with this certificate (PEM)")
    web.add_argument("--tls-key", help="the certificate's private key (PEM)")
    web.add_argument("--insecure", action="store_true", help="allow a non-loopback --bind without TLS")


def _operator_commands(sub: Any) -> None:
    """The operator's command line: every agent's sessions, as tmux and docker users expect."""
    ls = sub.add_parser("ls", help="every session, one line each (as the operator: all agents)")
    ls.add_argument("--json", action="store_true", help="a JSON array of the session objects process list carries")
    ls.add_argument("--agent", help="only this agent's sessions (operator: the operator's own)")
    ls.add_argument("--node", help="only this node's sessions (local: this host's)")
    ls.add_argument("--state", help="only sessions in this state: running, waiting, finished or failed")
    logs = sub.add_parser("logs", help="a session's output; -f follows it until the session ends")
    logs.add_argument("session", metavar="ID")
    logs.add_argument("-f", "--follow", action="store_true", help="go on printing output as it comes, until it ends")
    logs.add_argument("--raw", action="store_true", help="the PTY's bytes (escape sequences and all), not the text")
    logs.add_argument("--since", help="only output from then on: a span back from now (30s, 5m, 1h30m) or an ISO time")
    sub.add_parser("screen", help="what a PTY session's terminal shows now").add_argument("session", metavar="ID")
    send = sub.add_parser("send", help="send keys by name, as send-keys takes them (C-c Enter Up \"text\")")
    send.add_argument("session", metavar="ID")
    send.add_argument("keys", metavar="KEY", nargs="+")
    paste = sub.add_parser("paste", help="paste text (- reads it from stdin)")
    paste.add_argument("session", metavar="ID")
    paste.add_argument("text", metavar="TEXT")
    sub.add_parser("kill", help="end a session's processes and wait until none is left").add_argument(
        "session", metavar="ID")
    export = sub.add_parser("export", help="a session's recording: asciicast v2 (--cast, a PTY's default) or text "
                                           "with a time on each line (--text)")
    export.add_argument("session", metavar="ID")
    kind = export.add_mutually_exclusive_group()
    kind.add_argument("--cast", dest="format", action="store_const", const="cast",
                      help="asciicast v2, as asciinema plays it (PTY sessions)")
    kind.add_argument("--text", dest="format", action="store_const", const="text",
                      help="the output as text, each line led by its local time (HH:MM:SS.mmm)")
    export.add_argument("-o", "--output", metavar="FILE", help="write it here (default: stdout)")
    export.add_argument("--since", help="from then on: a span back from now (10m, 1h) or an ISO time; the "
                                        "recording starts with the screen as it was")
    export.add_argument("--until", help="up to then: a span back from now or an ISO time")
    export.add_argument("--idle-limit", type=float, metavar="S", help="cap every pause at S seconds")
    export.add_argument("--inputs", action="store_true", help="include the input sent (typed at a password "
                                                               "prompt: •••)")
    audit = sub.add_parser("audit", help="every act across the journal's sessions: started, input, resized, "
                                         "approvals, killed, removed, ended, host died, re-executed")
    audit.add_argument("--since", help="only acts from then on: a span back from now (1h, 30m) or an ISO time")
    audit.add_argument("--agent", help="only acts on this agent's sessions, or by it")
    audit.add_argument("--session", metavar="ID", help="only acts on this session")
    audit.add_argument("--json", action="store_true", help="a JSON array of {at, act, actor, sessionId, node, detail}")
    events = sub.add_parser("events", help="the host's events as they happen, one line each, until interrupted")
    events.add_argument("--json", action="store_true", help="each line a JSON object (event, sessionId, agent, node, at)")
    for name, what in (("mute", "no notifications of"), ("unmute", "notifications again of")):
        muting = sub.add_parser(name, help=f"{what} a session (or --agent NAME's sessions); kept across restarts")
        muting.add_argument("session", metavar="ID", nargs="?")
        muting.add_argument("--agent", help="every session of this agent, now and later")
    notify = sub.add_parser("notify", help="the host's notifications ([notify] in the config)")
    notify.add_argument("--test", action="store_true", help="send a test notification through every hook and say how it went")


def config_problem(path: str | None) -> str | None:
    """A one-line reason the config cannot be used, or None (checked before any host starts)."""
    import tomllib

    from openclaw_tui.core.config import load_settings

    try:
        load_settings(path)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        return f"config: {exc}"
    return None


def plain_call(argv: list[str]) -> tuple[str, str, bool] | None:
    """``(call, agent, operator)`` for ``call CALL [--agent NAME] [--operator]``, read without argparse (whose
    import and setup cost a script's every call several ms); None for anything else (``-h``, a mistake, both
    options), which argparse then answers as usual."""
    if argv[:1] != ["call"]:
        return None
    call, agent, operator, rest = None, "cli", False, argv[1:]
    while rest:
        word = rest.pop(0)
        if word == "--agent" and rest:
            agent = rest.pop(0)
        elif word.startswith("--agent="):
            agent = word.removeprefix("--agent=")
        elif word == "--operator":
            operator = True
        elif call is None and (word == "-" or not word.startswith("-")):
            call = word
        else:
            return None
    return None if call is None else (call, agent, operator)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if (plain := plain_call(argv)) is not None:
        from openclaw_tui.commands import run_call

        return run_call(*plain)
    if argv == ["--version"]:
        from openclaw_tui.commands import run_version

        return run_version()
    args = build_parser().parse_args(argv)
    if args.version:
        from openclaw_tui.commands import run_version

        return run_version()
    if args.command == "serve" and args.check_resume is not None:
        from openclaw_tui.remote.server import check_resume

        return check_resume(args.check_resume)
    if args.command == "serve" and args.reexec:
        from openclaw_tui.commands import run_reexec

        return run_reexec()
    # Not for `mcp`: an agent's client shows nothing of stderr, so the MCP server starts anyway and each
    # call's failed result names the problem instead. Nor for a resumed host: it keeps its settings.
    if args.command in (None, "serve", "web", "attach") and not getattr(args, "resume", None) and (
            problem := config_problem(args.config)):
        print(f"openclaw-tui: {problem}", file=sys.stderr)
        return 2
    if args.command == "serve":
        from openclaw_tui.remote.server import run_serve
        from openclaw_tui.toolhost import ToolHost

        return run_serve(ToolHost, args.config, args.resume)
    if args.command == "call":
        from openclaw_tui.commands import run_call

        return run_call(args.json, args.agent, args.operator)
    if args.command in OPERATOR_COMMANDS:
        return operator_command(args)
    if args.command == "mcp":
        from openclaw_tui.remote.mcp import run_mcp

        return run_mcp(args.agent, args.config)
    if args.command == "bridge":
        from openclaw_tui.remote.nodes import run_bridge

        return run_bridge(args.config, args.socket, args.no_start)
    if args.command == "nodes":
        from openclaw_tui.commands import run_nodes

        return run_nodes(args.config)
    if args.command == "approvals":
        from openclaw_tui.commands import run_approvals

        return run_approvals(args.history, args.json, args.decision, getattr(args, "id", None),
                             getattr(args, "always", False), getattr(args, "reason", None))
    if args.command == "audit":
        from openclaw_tui.commands import run_audit

        return run_audit(args.config, args.since, args.agent, args.session, args.json)
    if args.command == "sandbox":
        from openclaw_tui.commands import run_sandbox

        return run_sandbox(args.config, args.agent)
    if args.command == "web":
        from openclaw_tui.commands import run_web

        return run_web(args.config, args.bind, args.port, args.max_tabs, args.token_file, args.tls_cert,
                       args.tls_key, args.insecure)
    if args.command == "attach" and args.node:
        from openclaw_tui.commands import run_attach_node

        return run_attach_node(args.config, args.node)
    from .ui import run_dashboard

    return run_dashboard(config_path=args.config, demo=args.demo, start=args.command != "attach")


OPERATOR_COMMANDS = ("ls", "logs", "screen", "send", "paste", "kill", "events", "mute", "unmute", "notify", "export")


def operator_command(args: argparse.Namespace) -> int:
    """The operator's command line (``commands/``): each acts as the operator, refused inside a session."""
    import openclaw_tui.commands as c

    if args.command == "ls":
        return c.run_ls(args.json, args.agent, args.node, args.state)
    if args.command == "logs":
        return c.run_logs(args.session, args.follow, args.raw, args.since)
    if args.command == "screen":
        return c.run_screen(args.session)
    if args.command == "send":
        return c.run_send(args.session, args.keys)
    if args.command == "paste":
        return c.run_paste(args.session, args.text)
    if args.command == "kill":
        return c.run_kill(args.session)
    if args.command == "events":
        return c.run_events(args.json)
    if args.command == "export":
        return c.run_export(args.session, args.format, args.output, args.since, args.until, args.idle_limit,
                            args.inputs)
    if args.command in ("mute", "unmute"):
        return c.run_mute(args.session, args.agent, args.command == "mute")
    if not args.test:
        print("openclaw-tui: notify takes --test (send a test notification through every hook)", file=sys.stderr)
        return 2
    return c.run_notify_test()


if __name__ == "__main__":
    sys.exit(main())

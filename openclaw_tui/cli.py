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
    bridge = sub.add_parser("bridge", help="connect stdin/stdout to this machine's host socket (for ssh from a node client)")
    bridge.add_argument("--socket", help="the host's socket (default: as every command finds it)")
    bridge.add_argument("--no-start", action="store_true", help="fail instead of starting a host when none serves")
    sub.add_parser("nodes", help="list the configured nodes and whether each answers")
    sandbox = sub.add_parser("sandbox", help="list what a sandboxed run would not see here (credential stores, "
                                             "secret variables) and what it sees by the operator's choice")
    sandbox.add_argument("--agent", help="with this agent's settings ([agents.NAME.tools.exec.sandbox])")
    return parser


def config_problem(path: str | None) -> str | None:
    """A one-line reason the config cannot be used, or None (checked before any host starts)."""
    import tomllib

    from openclaw_tui.core.config import load_settings

    try:
        load_settings(path)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        return f"config: {exc}"
    return None


def plain_call(argv: list[str]) -> tuple[str, str] | None:
    """``(call, agent)`` for ``call CALL [--agent NAME]``, read without argparse (whose import and setup
    cost a script's every call several ms); None for anything else (``-h``, a mistake), which argparse
    then answers as usual."""
    if argv[:1] != ["call"]:
        return None
    call, agent, rest = None, "cli", argv[1:]
    while rest:
        word = rest.pop(0)
        if word == "--agent" and rest:
            agent = rest.pop(0)
        elif word.startswith("--agent="):
            agent = word.removeprefix("--agent=")
        elif call is None and (word == "-" or not word.startswith("-")):
            call = word
        else:
            return None
    return None if call is None else (call, agent)


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
    if args.command in (None, "serve") and not getattr(args, "resume", None) and (problem := config_problem(args.config)):
        print(f"openclaw-tui: {problem}", file=sys.stderr)
        return 2
    if args.command == "serve":
        from openclaw_tui.remote.server import run_serve
        from openclaw_tui.toolhost import ToolHost

        return run_serve(ToolHost, args.config, args.resume)
    if args.command == "call":
        from openclaw_tui.commands import run_call

        return run_call(args.json, args.agent)
    if args.command == "mcp":
        from openclaw_tui.remote.mcp import run_mcp

        return run_mcp(args.agent, args.config)
    if args.command == "bridge":
        from openclaw_tui.remote.nodes import run_bridge

        return run_bridge(args.config, args.socket, args.no_start)
    if args.command == "nodes":
        from openclaw_tui.commands import run_nodes

        return run_nodes(args.config)
    if args.command == "sandbox":
        from openclaw_tui.commands import run_sandbox

        return run_sandbox(args.config, args.agent)
    if args.command == "attach" and args.node:
        from openclaw_tui.commands import run_attach_node

        return run_attach_node(args.config, args.node)
    from .ui import run_dashboard

    return run_dashboard(config_path=args.config, demo=args.demo, start=args.command != "attach")


if __name__ == "__main__":
    sys.exit(main())

"""The ``openclaw-tui`` command: the dashboard by default, and the other surfaces as subcommands.

Each surface is a thin layer over :class:`openclaw_tui.ToolHost`; this module only parses arguments and
hands over, so the dashboard and the tests build the app the same way (through ``make_app``).
"""

from __future__ import annotations

import argparse
import sys


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="openclaw-tui", description="Run and supervise the shell jobs agents start.")
    parser.add_argument("--config", help="TOML config file (default: $OPENCLAW_TUI_CONFIG or ~/.config/openclaw-tui/config.toml)")
    parser.add_argument("--demo", action="store_true", help="start example sessions so there is something to watch")
    sub = parser.add_subparsers(dest="command")
    call = sub.add_parser("call", help="run one tool call (JSON) on an embedded host and print the result")
    call.add_argument("json", help='the tool call, e.g. \'{"tool": "exec", "command": "ls"}\'')
    call.add_argument("--agent", default="cli", help="scope the call runs in (default: cli)")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "call":
        from .call import run_call

        return run_call(args.json, args.agent, args.config)
    from .ui import run_dashboard

    return run_dashboard(config_path=args.config, demo=args.demo)


if __name__ == "__main__":
    sys.exit(main())

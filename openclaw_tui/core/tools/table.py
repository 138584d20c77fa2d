"""The tools in one table: each name with the parameters it takes, who may call it, and what runs it.

A call is checked here once, in one order, whatever surface it came from; the MCP server lists its tools from
this table too.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ValidationError

from ..calls import TOOL_NAMES, ToolResult, calltext, failure, unknown_tool
from ..config import Settings
from .exec_tool import run_exec
from .models import ExecParams, ProcessParams, describe_error
from .process_tool import run_process
from .toolcore import ToolCore


@dataclass(frozen=True)
class Tool:
    """One tool: its parameters, whether this host's configuration allows it, and what runs it."""

    params: type[BaseModel]
    run: Callable[[ToolCore, Any, str | None], Awaitable[ToolResult]]
    allowed: Callable[[Settings], bool] = lambda settings: True
    refusal: str = ""


TOOLS: dict[str, Tool] = {
    "exec": Tool(ExecParams, run_exec),
    "process": Tool(ProcessParams, run_process, lambda settings: settings.process_allowed,
                    "the process tool is not allowed by this host's configuration"),
}
assert tuple(TOOLS) == TOOL_NAMES


def validated(name: Any, args: dict[str, Any], settings: Settings) -> tuple[Tool, BaseModel] | ToolResult:
    """The tool named ``name`` and its parameters read from ``args``, or the failed result saying why not."""
    tool = TOOLS.get(name) if isinstance(name, str) else None
    if tool is None:
        return unknown_tool(name)
    if not tool.allowed(settings):
        return failure(tool.refusal, "tool-not-allowed")
    problem = calltext.shape_problem(args)
    if problem is not None:  # text no environment can hold is invalid-env, as a NUL there is at launch
        kind = "invalid-env" if problem.not_text and problem.parameter == "env" else "invalid-params"
        return failure(f"invalid {name} call: {problem.sentence}", kind)
    try:
        return tool, tool.params.model_validate(args)
    except ValidationError as exc:
        return failure(f"invalid {name} call: {describe_error(exc, tool.params)}", "invalid-params")


async def run_tool(core: ToolCore, call: dict[str, Any], agent: str | None) -> ToolResult:
    """Run a call already read as an object (``{"tool": ..., **parameters}``) in ``agent``'s scope."""
    args = dict(call)
    found = validated(args.pop("tool", None), args, core.settings)
    if not isinstance(found, tuple):
        return found
    tool, params = found
    return await tool.run(core, params, agent)

"""What a run needs before it starts: to run, to be refused, or the operator's approval (OpenClaw's policy).

``security`` (deny | allowlist | full) says what may run outside the sandbox; ``ask`` (off | on-miss |
always) when the operator is asked; ``askFallback`` what a request nobody answers in time comes to. They
are captured per agent when a call is admitted; the allowlist file may tighten them, and so may the
call's own ``ask``, which can never loosen them. The operator's own runs (no agent) are never asked: the
one who would answer is the one asking; ``security = "deny"`` still holds for them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..config import ASK_LEVELS, SECURITY_LEVELS, ExecSettings
from .analysis import Analysis

RUN, DENY, ASK = "run", "deny", "ask"


@dataclass(frozen=True)
class Policy:
    """The policy one run is admitted under."""

    security: str = "full"
    ask: str = "off"
    fallback: str = "deny"
    timeout_ms: int = 1_800_000
    notice_ms: int = 10_000
    operator: bool = False  # the operator's own run: never asked

    def needs_analysis(self, sandboxed: bool) -> bool:
        """Whether what the command runs matters to the verdict or to the request shown (not by default:
        ``full`` with ``ask = "off"`` runs every command as written)."""
        if self.operator:
            return False
        if self.ask == "always":
            return True
        return not sandboxed and self.security != "deny" and (self.security, self.ask) != ("full", "off")


@dataclass(frozen=True)
class Verdict:
    """``action`` is RUN, DENY or ASK; ``why`` says why it was not RUN."""

    action: str
    why: str = ""


def stricter_security(a: str, b: str) -> str:
    return min(a, b, key=SECURITY_LEVELS.index)


def stricter_ask(a: str, b: str) -> str:
    return max(a, b, key=ASK_LEVELS.index)


def policy_for(settings: ExecSettings, call_ask: str | None, agent: str | None,
               from_file: Mapping[str, str]) -> Policy | str:
    """The policy of a run by ``agent`` with the call's ``ask``, or the text of why the call is invalid (an
    ``ask`` looser than the configured one)."""
    security, ask, fallback = settings.security, settings.ask, settings.ask_fallback
    if from_file.get("security") in SECURITY_LEVELS:
        security = stricter_security(security, from_file["security"])
    if from_file.get("ask") in ASK_LEVELS:
        ask = stricter_ask(ask, from_file["ask"])
    if from_file.get("askFallback") in SECURITY_LEVELS:
        fallback = stricter_security(fallback, from_file["askFallback"])
    if call_ask is not None:
        if ASK_LEVELS.index(call_ask) < ASK_LEVELS.index(ask):
            allowed = " or ".join(repr(a) for a in ASK_LEVELS[ASK_LEVELS.index(ask):])
            return (f"invalid exec call: ask can only tighten the configured policy: this host asks {ask!r}, so "
                    f"ask may be {allowed} (got {call_ask!r}); nothing was run")
        ask = call_ask
    return Policy(security, ask, fallback, settings.approval_timeout_ms, settings.approval_running_notice_ms,
                  operator=agent is None)


def verdict(policy: Policy, sandboxed: bool, analysis: Analysis | None) -> Verdict:
    """Whether the run may start, is refused, or needs the operator; ``analysis`` is there when
    :meth:`Policy.needs_analysis` says it matters."""
    if not sandboxed and policy.security == "deny":
        return Verdict(DENY, "security = \"deny\": nothing runs outside the sandbox on this host")
    if policy.operator:
        return Verdict(RUN)
    if policy.ask == "always":
        return Verdict(ASK, "ask = \"always\": every run needs the operator's approval")
    if sandboxed or (policy.security == "full" and policy.ask == "off"):
        return Verdict(RUN)
    assert analysis is not None, "the policy needs the command judged"
    if analysis.matched:
        return Verdict(RUN)
    misses = "; ".join(analysis.misses())
    if policy.ask == "off":  # security allowlist: a miss is refused, nobody is asked
        return Verdict(DENY, f"security = \"allowlist\" and ask = \"off\": {misses}")
    return Verdict(ASK, misses)


def fallback(policy: Policy, analysis: Analysis | None) -> bool:
    """Whether a request nobody answered in time runs after all, as ``askFallback`` says."""
    if policy.fallback == "full":
        return True
    return policy.fallback == "allowlist" and analysis is not None and analysis.matched

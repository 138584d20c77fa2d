"""The allowlist file: OpenClaw's schema, globs on the real program, bare names, argPattern, and safe writes."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from openclaw_tui.core.approvals import Allowlist, AllowlistEntry, analyze, exact, widened
from openclaw_tui.core.approvals.allowlist import AllowlistError, glob_regex
from openclaw_tui.core.approvals.resolve import Resolved


def write(path: Path, data: object) -> None:
    path.write_text(json.dumps(data))


def entries(*items: dict[str, str], agent: str = "main") -> dict[str, object]:
    return {"version": 1, "agents": {agent: {"allowlist": list(items)}}}


@pytest.fixture
def binaries(tmp_path: Path) -> Path:
    """A directory of programs: ``tool`` (a script) and ``alias`` (a symlink to it)."""
    folder = tmp_path / "bin"
    folder.mkdir()
    tool = folder / "tool"
    tool.write_text("#!/bin/sh\necho tool \"$@\"\n")
    tool.chmod(0o755)
    (folder / "alias").symlink_to(tool)
    return folder


def judged(allowlist: Allowlist, command: str, path: str, cwd: str = "/", agent: str = "main"):
    allowlist.load()
    return analyze(command, cwd, path, False, allowlist, agent)


def test_a_pattern_is_a_glob_on_the_real_path_and_a_symlink_is_judged_as_its_target(tmp_path, binaries) -> None:
    file = tmp_path / "exec-approvals.json"
    write(file, entries({"pattern": str(binaries / "tool")}))
    allow = Allowlist(str(file))
    assert judged(allow, "tool x", str(binaries)).matched
    assert judged(allow, "alias x", str(binaries)).matched  # the link's target is what is allowed
    write(file, entries({"pattern": str(binaries / "alias")}))  # a link's own path never matches
    assert not judged(allow, "alias x", str(binaries)).matched
    assert glob_regex("/opt/**/bin/*").fullmatch("/opt/a/b/bin/rg")
    assert not glob_regex("/opt/*/rg").fullmatch("/opt/a/b/rg")  # one * stays in one directory


def test_a_bare_name_matches_only_a_path_lookup_never_dot_slash(tmp_path, binaries) -> None:
    file = tmp_path / "exec-approvals.json"
    write(file, entries({"pattern": "tool"}))
    allow = Allowlist(str(file))
    assert judged(allow, "tool", str(binaries)).matched
    assert not judged(allow, "./tool", "/usr/bin", cwd=str(binaries)).matched
    assert not judged(allow, f"{binaries}/tool", "/usr/bin").matched


def test_arg_pattern_must_match_the_whole_of_the_arguments(tmp_path, binaries) -> None:
    file = tmp_path / "exec-approvals.json"
    write(file, entries({"pattern": str(binaries / "tool"), "argPattern": "status( --short)?"}))
    allow = Allowlist(str(file))
    assert judged(allow, "tool status", str(binaries)).matched
    assert judged(allow, "tool status --short", str(binaries)).matched
    assert not judged(allow, "tool status; rm", str(binaries)).matched  # (a second segment anyway)
    assert not judged(allow, "tool 'status --short --porcelain'", str(binaries)).matched
    assert not judged(allow, "tool xstatus", str(binaries)).matched


def test_entries_of_every_agent_apply_and_other_agents_entries_do_not(tmp_path, binaries) -> None:
    file = tmp_path / "exec-approvals.json"
    write(file, {"version": 1, "agents": {"*": {"allowlist": [{"pattern": str(binaries / "tool")}]},
                                          "other": {"allowlist": [{"pattern": "/usr/bin/*"}]}}})
    allow = Allowlist(str(file))
    assert judged(allow, "tool", str(binaries), agent="main").matched
    assert not judged(allow, "ls", "/usr/bin", agent="main").matched
    assert judged(allow, "ls", "/usr/bin", agent="other").matched


def test_allow_always_writes_atomically_with_mode_0600_and_keeps_what_it_does_not_know(tmp_path) -> None:
    file = tmp_path / "cfg" / "exec-approvals.json"
    file.parent.mkdir()
    write(file, {"version": 1, "defaults": {"ask": "on-miss", "autoAllowSkills": True}, "note": "mine",
                 "agents": {"main": {"allowlist": [{"pattern": "/bin/true", "lastUsedCommand": "true"}]}}})
    file.chmod(0o644)
    allow = Allowlist(str(file))
    entry = exact(("git", "push", "origin main"), "/usr/bin/git")
    allow.add([AllowlistEntry(entry.pattern, entry.arg_pattern, "main")])
    data = json.loads(file.read_text())
    assert stat.S_IMODE(os.stat(file).st_mode) == 0o600
    assert data["note"] == "mine" and data["defaults"]["autoAllowSkills"] is True
    assert data["agents"]["main"]["allowlist"] == [
        {"pattern": "/bin/true", "lastUsedCommand": "true"},
        {"pattern": "/usr/bin/git", "argPattern": "^push\\ origin\\ main$", "source": "allow-always"}]
    assert [p.name for p in file.parent.iterdir()] == ["exec-approvals.json"]  # no temporary file left


def test_widened_entries_keep_the_first_arguments_and_allow_any_after() -> None:
    argv = ("git", "commit", "-m", "wip")
    assert widened(argv, "/usr/bin/git", 3) == exact(argv, "/usr/bin/git")
    assert widened(argv, "/usr/bin/git", 1).arg_pattern == "^commit( .*)?$"
    assert widened(argv, "/usr/bin/git", 0).arg_pattern is None
    git = Resolved("/usr/bin/git", "/usr/bin/git", True)
    assert widened(argv, "/usr/bin/git", 1).matches(("git", "commit", "--amend"), git)
    assert not widened(argv, "/usr/bin/git", 1).matches(("git", "committed"), git)


def test_an_unreadable_file_allows_nothing_and_is_never_overwritten(tmp_path, binaries) -> None:
    file = tmp_path / "exec-approvals.json"
    broken = '{"version": 1, "agents": {"main": {"allowlist": [{"pattern": "' + str(binaries) + '/tool"}]}'
    file.write_text(broken)  # a brace short
    allow = Allowlist(str(file))
    assert not judged(allow, "tool", str(binaries)).matched and "JSON" in (allow.problem or "")
    with pytest.raises(AllowlistError, match="cannot be changed"):
        allow.add([AllowlistEntry("/bin/true", None, "main")])
    assert file.read_text() == broken  # as the user left it


def test_a_hand_edit_takes_effect_at_the_next_check(tmp_path, binaries) -> None:
    file = tmp_path / "exec-approvals.json"
    allow = Allowlist(str(file))
    assert not judged(allow, "tool", str(binaries)).matched  # no file yet: nothing matches
    write(file, entries({"pattern": str(binaries / "tool")}))
    assert allow.stale()
    assert judged(allow, "tool", str(binaries)).matched


def test_the_file_can_tighten_the_policy_per_agent(tmp_path) -> None:
    file = tmp_path / "exec-approvals.json"
    write(file, {"version": 1, "defaults": {"ask": "on-miss"}, "agents": {"ci": {"security": "deny"}}})
    allow = Allowlist(str(file))
    allow.load()
    assert allow.policy("main") == {"ask": "on-miss"}
    assert allow.policy("ci") == {"security": "deny", "ask": "on-miss"}


def test_last_used_at_is_recorded_for_the_entry_that_allowed_a_run(tmp_path, binaries) -> None:
    file = tmp_path / "exec-approvals.json"
    write(file, entries({"pattern": str(binaries / "tool")}))
    allow = Allowlist(str(file))
    found = judged(allow, "tool", str(binaries))
    assert allow.touch(found.segments[0].entry) is True
    allow.write_touches()
    assert json.loads(file.read_text())["agents"]["main"]["allowlist"][0]["lastUsedAt"] > 0

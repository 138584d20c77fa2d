"""Configuration: TOML keys of the seeds, environment overrides (and legacy names), clamps, policy."""

from __future__ import annotations

import pytest

from openclaw_tui.core.config.settings import ConfigWarning, load_settings


def _cfg(tmp_path, text: str):
    path = tmp_path / "config.toml"
    path.write_text(text)
    return path


def test_defaults_follow_the_contract(tmp_path) -> None:
    s = load_settings(_cfg(tmp_path, ""), env={}).exec
    assert (s.yield_ms, s.timeout_sec, s.ttl_ms) == (10_000, 1800, 1_800_000)
    assert (s.max_output_chars, s.pending_max_chars, s.input_wait_ms) == (200_000, 30_000, 15_000)
    assert s.notify_on_exit is True and s.notify_on_exit_empty_success is False


def test_toml_keys_are_read(tmp_path) -> None:
    path = _cfg(tmp_path, """
[tools.exec]
backgroundMs = 2500
timeoutSec = 60
cleanupMs = 120000
notifyOnExit = false
notifyOnExitEmptySuccess = true
""")
    s = load_settings(path, env={}).exec
    assert (s.yield_ms, s.timeout_sec, s.ttl_ms) == (2500, 60, 120_000)
    assert s.notify_on_exit is False and s.notify_on_exit_empty_success is True


def test_environment_overrides_the_file(tmp_path) -> None:
    path = _cfg(tmp_path, "[tools.exec]\nbackgroundMs = 2500\n")
    env = {
        "OPENCLAW_BASH_YIELD_MS": "700",
        "OPENCLAW_BASH_MAX_OUTPUT_CHARS": "5000",
        "OPENCLAW_BASH_PENDING_MAX_OUTPUT_CHARS": "2000",
        "OPENCLAW_BASH_JOB_TTL_MS": "90000",
        "OPENCLAW_PROCESS_INPUT_WAIT_IDLE_MS": "4000",
    }
    s = load_settings(path, env=env).exec
    assert (s.yield_ms, s.max_output_chars, s.pending_max_chars, s.ttl_ms, s.input_wait_ms) == (
        700, 5000, 2000, 90_000, 4000)


def test_legacy_names_are_read_only_when_the_new_one_is_unset(tmp_path) -> None:
    path = _cfg(tmp_path, "")
    s = load_settings(path, env={"PI_BASH_YIELD_MS": "800", "PI_BASH_JOB_TTL_MS": "70000"}).exec
    assert s.yield_ms == 800 and s.ttl_ms == 70_000
    s = load_settings(path, env={"PI_BASH_YIELD_MS": "800", "OPENCLAW_BASH_YIELD_MS": "900"}).exec
    assert s.yield_ms == 900


@pytest.mark.parametrize("value", ["12.5", "1e3", "lots", "-5", "0x10"])
def test_a_value_that_is_not_a_plain_integer_is_ignored_with_a_warning(tmp_path, value) -> None:
    with pytest.warns(ConfigWarning, match="OPENCLAW_BASH_YIELD_MS"):
        s = load_settings(_cfg(tmp_path, ""), env={"OPENCLAW_BASH_YIELD_MS": value}).exec
    assert s.yield_ms == 10_000


@pytest.mark.parametrize(
    "var, value, attr, expected",
    [
        ("OPENCLAW_BASH_YIELD_MS", "1", "yield_ms", 10),
        ("OPENCLAW_BASH_YIELD_MS", "999999", "yield_ms", 120_000),
        ("OPENCLAW_BASH_JOB_TTL_MS", "5", "ttl_ms", 60_000),
        ("OPENCLAW_BASH_JOB_TTL_MS", "99999999", "ttl_ms", 10_800_000),
        ("OPENCLAW_BASH_MAX_OUTPUT_CHARS", "10", "max_output_chars", 1000),
        ("OPENCLAW_BASH_MAX_OUTPUT_CHARS", "9999999", "max_output_chars", 200_000),
        ("OPENCLAW_BASH_PENDING_MAX_OUTPUT_CHARS", "10", "pending_max_chars", 1000),
        ("OPENCLAW_PROCESS_INPUT_WAIT_IDLE_MS", "10", "input_wait_ms", 1000),
        ("OPENCLAW_PROCESS_INPUT_WAIT_IDLE_MS", "9999999", "input_wait_ms", 600_000),
    ],
)
def test_values_are_clamped(tmp_path, var, value, attr, expected) -> None:
    assert getattr(load_settings(_cfg(tmp_path, ""), env={var: value}).exec, attr) == expected


def test_pending_cap_never_exceeds_the_total_cap(tmp_path) -> None:
    env = {"OPENCLAW_BASH_MAX_OUTPUT_CHARS": "3000", "OPENCLAW_BASH_PENDING_MAX_OUTPUT_CHARS": "50000"}
    s = load_settings(_cfg(tmp_path, ""), env=env).exec
    assert s.pending_max_chars == 3000


def test_process_tool_can_be_disallowed(tmp_path) -> None:
    assert load_settings(_cfg(tmp_path, ""), env={}).process_allowed
    assert not load_settings(_cfg(tmp_path, '[tools]\ndeny = ["process"]\n'), env={}).process_allowed
    assert not load_settings(_cfg(tmp_path, "[tools.process]\nenabled = false\n"), env={}).process_allowed


def test_wrong_types_in_the_file_are_ignored_with_a_warning(tmp_path) -> None:
    with pytest.warns(ConfigWarning, match="backgroundMs"):
        s = load_settings(_cfg(tmp_path, '[tools.exec]\nbackgroundMs = "fast"\n'), env={}).exec
    assert s.yield_ms == 10_000


def test_per_agent_settings_override_the_defaults(tmp_path) -> None:
    path = _cfg(tmp_path, "[tools.exec]\ntimeoutSec = 100\n[agents.ci.tools.exec]\ntimeoutSec = 5\n")
    s = load_settings(path, env={})
    assert s.for_agent("ci").timeout_sec == 5 and s.for_agent("main").timeout_sec == 100


def test_a_given_config_file_that_is_missing_is_an_error(tmp_path) -> None:
    with pytest.raises(FileNotFoundError):
        load_settings(tmp_path / "missing.toml", env={})


def test_default_config_path_comes_from_the_environment(tmp_path) -> None:
    path = _cfg(tmp_path, "[tools.exec]\nbackgroundMs = 3333\n")
    assert load_settings(env={"OPENCLAW_TUI_CONFIG": str(path)}).exec.yield_ms == 3333


def test_sessions_are_journaled_under_the_xdg_state_directory_by_default(tmp_path) -> None:
    s = load_settings(_cfg(tmp_path, ""), env={"XDG_STATE_HOME": "/st", "HOME": "/h"})
    assert s.persist is True and s.state_dir == "/st/openclaw-tui"
    assert load_settings(_cfg(tmp_path, ""), env={"XDG_STATE_HOME": "", "HOME": "/h"}).state_dir == "/h/.local/state/openclaw-tui"
    relative = load_settings(_cfg(tmp_path, ""), env={"XDG_STATE_HOME": "st", "HOME": "/h"})
    assert relative.state_dir == "/h/.local/state/openclaw-tui"  # the XDG spec: a relative one is ignored


def test_persist_is_read_from_tools_exec_and_the_state_directory_from_host(tmp_path) -> None:
    s = load_settings(_cfg(tmp_path, '[tools.exec]\npersist = false\n[host]\nstateDir = "/srv/oc//state"\n'), env={})
    assert s.persist is False and s.state_dir == "/srv/oc/state"


def test_the_state_directory_is_hidden_from_sandboxed_runs(tmp_path) -> None:
    env = {"XDG_STATE_HOME": "/st", "HOME": "/h"}
    assert "/st/openclaw-tui" in load_settings(_cfg(tmp_path, ""), env=env).exec.secrets
    s = load_settings(_cfg(tmp_path, '[host]\nstateDir = "/srv/state"\n[agents.ci.tools.exec]\n'), env=env)
    assert "/srv/state" in s.exec.secrets and "/srv/state" in s.agents["ci"].secrets


@pytest.mark.parametrize(("text", "message"), [
    ('[tools.exec]\npersist = "no"', "tools.exec.persist must be bool"),
    ('[host]\nstateDir = "rel/dir"', "stateDir: an absolute path"),
    ("[host]\nstateDir = 5", "stateDir: an absolute path"),
])
def test_bad_journal_settings_are_ignored_with_a_warning(tmp_path, text, message) -> None:
    with pytest.warns(ConfigWarning, match=message):
        s = load_settings(_cfg(tmp_path, f"{text}\n"), env={"XDG_STATE_HOME": "", "HOME": "/h"})
    assert s.persist is True and s.state_dir == "/h/.local/state/openclaw-tui"


def test_journal_settings_are_host_wide_not_per_agent(tmp_path) -> None:
    with pytest.warns(ConfigWarning, match=r"agents\.ci\.tools\.exec\.persist is host-wide"):
        s = load_settings(_cfg(tmp_path, "[agents.ci.tools.exec]\npersist = false\n"), env={})
    assert s.persist is True

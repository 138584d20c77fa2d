"""``[tools.exec.sandbox]`` ``show``, ``passEnv`` and ``hide`` as an operator writes them, host-wide and per
agent, and the host's own directories that no ``show`` opens."""

from __future__ import annotations

import os

import pytest

from openclaw_tui.core.config import ConfigWarning, load_settings

HOME = "/home/u"


def _load(tmp_path, text: str, env: dict[str, str] | None = None):
    cfg = tmp_path / "c.toml"
    cfg.write_text(text)
    return load_settings(cfg, env={"HOME": HOME, "XDG_STATE_HOME": "/st", **(env or {})})


def test_show_pass_env_and_hide_are_read_host_wide_and_per_agent(tmp_path) -> None:
    s = _load(tmp_path, (
        '[tools.exec.sandbox]\nshow = ["~/.npmrc", "/run/docker.sock"]\npassEnv = ["HF_TOKEN", "AWS_*"]\n'
        'hide = ["/srv/keys"]\nsecrets = ["/srv/more"]\n'
        '[agents.deploy.tools.exec.sandbox]\nshow = ["/home/u/.kube"]\npassEnv = ["KUBE_TOKEN"]\nhide = ["/srv/ci"]\n'
    ))
    base, deploy = s.exec, s.for_agent("deploy")
    assert base.shown == (os.path.expanduser("~/.npmrc"), "/run/docker.sock")
    assert base.pass_env == ("HF_TOKEN", "AWS_*")
    assert {"/srv/keys", "/srv/more"} <= set(base.secrets) and "/run/docker.sock" not in base.secrets
    assert "/run/containerd/containerd.sock" in base.secrets  # defaults not shown stay
    assert deploy.shown == (*base.shown, "/home/u/.kube") and deploy.pass_env == ("HF_TOKEN", "AWS_*", "KUBE_TOKEN")
    assert {"/srv/keys", "/srv/more", "/srv/ci"} <= set(deploy.secrets)
    assert s.for_agent("other") == base


def test_a_path_shown_and_hidden_at_the_same_level_stays_hidden(tmp_path) -> None:
    s = _load(tmp_path, '[tools.exec.sandbox]\nshow = ["/srv/keys"]\nhide = ["/srv/keys"]\n')
    assert "/srv/keys" in s.exec.secrets


@pytest.mark.parametrize("shown", ["/st/openclaw-tui", "/st/openclaw-tui/journal", "/srv/oc", "/srv/oc/host.sock"])
def test_a_show_of_the_state_or_socket_directory_warns_and_it_stays_hidden(tmp_path, shown: str) -> None:
    with pytest.warns(ConfigWarning, match="stays hidden"):
        s = _load(tmp_path, f'[tools.exec.sandbox]\nshow = ["{shown}"]\n',
                  {"OPENCLAW_TUI_SOCKET": "/srv/oc/host.sock"})
    assert shown not in s.exec.shown
    assert {"/st/openclaw-tui", "/srv/oc"} <= set(s.exec.secrets)


def test_a_show_that_covers_the_state_directory_shows_the_rest_but_not_it(tmp_path) -> None:
    with pytest.warns(ConfigWarning) as caught:
        s = _load(tmp_path, '[agents.ci.tools.exec.sandbox]\nshow = ["/st", "/tmp"]\n')
    said = [str(w.message) for w in caught]
    assert any("/st covers /st/openclaw-tui, the host's state directory" in m and "stays hidden" in m for m in said)
    assert any(f"/tmp covers /tmp/openclaw-tui-{os.getuid()}, the host's socket directory" in m for m in said)
    ci = s.for_agent("ci")
    assert ci.shown == ("/st", "/tmp") and "/st/openclaw-tui" in ci.secrets
    assert f"/tmp/openclaw-tui-{os.getuid()}" in ci.secrets  # the host's fallback socket directory
    assert f"/tmp/tmux-{os.getuid()}" not in ci.secrets and "/tmp/ssh-*" not in ci.secrets


def test_a_stateDir_of_the_config_is_protected_as_well(tmp_path) -> None:
    with pytest.warns(ConfigWarning, match="agents.ci.tools.exec.sandbox.show: /srv/state/x is inside /srv/state"):
        s = _load(tmp_path, '[host]\nstateDir = "/srv/state"\n[agents.ci.tools.exec.sandbox]\nshow = ["/srv/state/x"]\n')
    assert s.for_agent("ci").shown == () and "/srv/state" in s.for_agent("ci").secrets


@pytest.mark.parametrize(("text", "needle"), [
    ('show = "~/.npmrc"', "show must be a list of paths"),
    ('show = ["relative/x"]', "not an absolute path"),
    ('show = ["/home/u/.config/*"]', "is a pattern"),
    ('passEnv = "HF_TOKEN"', "passEnv must be a list of variable names"),
    ('passEnv = ["A=B"]', "passEnv must be a list of variable names"),
    ('hide = [1]', "hide must be a list of paths"),
])
def test_bad_exceptions_are_ignored_with_a_warning(tmp_path, text: str, needle: str) -> None:
    with pytest.warns(ConfigWarning, match=needle):
        s = _load(tmp_path, f"[tools.exec.sandbox]\n{text}\n")
    assert s.exec.shown == () and s.exec.pass_env == ()

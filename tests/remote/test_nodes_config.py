"""Nodes without a network: ``[nodes.NAME]`` in the config, the ssh command line built from it, a per-call
``host`` on this machine, and the rules that keep this machine's directory and ids to itself."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from openclaw_tui import ToolHost
from openclaw_tui.core.config.nodesettings import NodeSettings
from openclaw_tui.core.config.settings import ConfigWarning, load_settings
from openclaw_tui.core.containment.sandbox import check
from openclaw_tui.remote.nodes.bridge import asked_not_to_start
from openclaw_tui.remote.nodes.ssh import ssh_argv
from openclaw_tui.remote.nodes.sshnodes import prefix_ids
from openclaw_tui.remote.wire import protocol as p

from ..support.hosts import hosting


def settings_from(tmp_path: Path, text: str):
    path = tmp_path / "config.toml"
    path.write_text(text)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        settings = load_settings(path, env={})
    return settings, [str(w.message) for w in caught if issubclass(w.category, ConfigWarning)]


def test_a_node_table_gives_destination_command_socket_and_options(tmp_path) -> None:
    settings, warned = settings_from(tmp_path, """
[nodes.gpu-box]
ssh = "me@gpu.example"
socket = "/run/user/1000/openclaw-tui/host.sock"
command = "~/.local/bin/openclaw-tui"
options = ["-p", "2222", "-o", "ProxyJump=bastion"]

[nodes.build]
ssh = "build"
""")
    assert not warned
    assert settings.nodes["gpu-box"] == NodeSettings(
        "gpu-box", "me@gpu.example", "/run/user/1000/openclaw-tui/host.sock", "~/.local/bin/openclaw-tui",
        ("-p", "2222", "-o", "ProxyJump=bastion"))
    assert settings.nodes["build"] == NodeSettings("build", "build")  # command openclaw-tui, default socket


@pytest.mark.parametrize("table, problem", [
    ('[nodes."a/b"]\nssh = "x"', "letters, digits"),
    ("[nodes.a]\ncommand = \"x\"", "ssh must be an ssh destination"),
    ('[nodes.a]\nssh = "-oProxyCommand=evil"', "not an option"),
    ('[nodes.a]\nssh = "me@box"\noptions = "-p 22"', "options must be a list"),
    ('[nodes.a]\nssh = "me@box"\ncommand = ""', "command must be a non-empty string"),
])
def test_a_node_that_cannot_be_used_is_left_out_with_a_warning_saying_why(tmp_path, table, problem) -> None:
    settings, warned = settings_from(tmp_path, table + '\n[nodes.ok]\nssh = "ok"\n')
    assert list(settings.nodes) == ["ok"]
    assert any(problem in w for w in warned), warned


def test_an_unknown_node_key_is_warned_about(tmp_path) -> None:
    settings, warned = settings_from(tmp_path, '[nodes.a]\nssh = "box"\nport = 22\n')
    assert "a" in settings.nodes and any("nodes.a.port" in w for w in warned)


def test_the_ssh_command_puts_the_users_options_first_and_asks_for_the_bridge() -> None:
    node = NodeSettings("n", "me@box", socket="/srv/oc host.sock", command="/opt/oc/bin/openclaw-tui",
                        options=("-o", "BatchMode=no"))
    argv = ssh_argv(node)
    assert argv[:3] == ["ssh", "-o", "BatchMode=no"]  # ssh keeps the first value: the user's wins
    assert "-T" in argv and argv[-3:-1] == ["--", "me@box"]
    assert argv[-1] == "/opt/oc/bin/openclaw-tui bridge --socket '/srv/oc host.sock'"
    assert ssh_argv(node, start=False)[-1].endswith(" --no-start")


def test_a_forced_command_honours_only_no_start_from_the_clients_command() -> None:
    assert asked_not_to_start("openclaw-tui bridge --no-start")
    assert not asked_not_to_start("openclaw-tui bridge --socket /x")
    assert not asked_not_to_start(None) and not asked_not_to_start("'unbalanced")


def test_a_node_run_does_not_take_this_machines_directory() -> None:
    here = {"tool": "exec", "command": "ls"}
    assert p.in_callers_directory(here, "/home/me/project")["workdir"] == "/home/me/project"
    there = {"tool": "exec", "command": "ls", "host": "node", "node": "gpu"}
    assert "workdir" not in p.in_callers_directory(there, "/home/me/project")


def test_node_ids_are_prefixed_only_where_they_stand_alone() -> None:
    text = ('session brisk-atlas (x) and "brisk-atlas": brisk-atlas-2 /tmp/brisk-atlas a/brisk-atlas '
            "brisk-atlas.")
    assert prefix_ids(text, "gpu", ["brisk-atlas", None]) == (
        'session gpu/brisk-atlas (x) and "gpu/brisk-atlas": brisk-atlas-2 /tmp/brisk-atlas a/brisk-atlas '
        "gpu/brisk-atlas.")


async def test_a_per_call_gateway_passes_the_elevated_gate(tmp_path) -> None:
    async with hosting(ToolHost(env={}, config_path="/dev/null")) as host:
        res = await host.call({"tool": "exec", "command": "echo hi", "host": "gateway"}, agent="a")
        assert res["details"]["failureKind"] == "elevated-refused" and "tools.elevated.enabled" in res["text"]
    config = tmp_path / "elevated.toml"
    config.write_text("[tools.elevated]\nenabled = true\n")
    async with hosting(ToolHost(env={}, config_path=config)) as host:
        res = await host.call({"tool": "exec", "command": "echo hi", "host": "gateway"}, agent="a")
        assert res["details"]["status"] == "completed" and res["details"]["host"] == "gateway", res
    config.write_text('[tools.exec]\nhost = "gateway"\n')  # already on the host: nothing is widened
    async with hosting(ToolHost(env={}, config_path=config)) as host:
        res = await host.call({"tool": "exec", "command": "echo hi", "host": "gateway"}, agent="a")
        assert res["details"]["status"] == "completed", res


async def test_a_per_call_sandbox_is_always_allowed(tmp_path) -> None:
    config = tmp_path / "gateway.toml"
    config.write_text('[tools.exec]\nhost = "gateway"\n[tools.elevated]\nenabled = true\n')
    usable = (await check()).usable
    async with hosting(ToolHost(env={}, config_path=config)) as host:
        res = await host.call({"tool": "exec", "command": "echo hi", "host": "sandbox"}, agent="a")
        if usable:
            assert res["details"]["status"] == "completed" and res["details"]["host"] == "sandbox", res
        else:
            assert res["details"]["failureKind"] == "sandbox-unavailable" and 'host: "sandbox"' in res["text"]
        res = await host.call({"tool": "exec", "command": "true", "host": "sandbox", "elevated": True}, agent="a")
        assert res["details"]["failureKind"] == "invalid-params" and "contradict" in res["text"], res


async def test_host_node_without_nodes_configured_says_how_to_add_one() -> None:
    async with hosting(ToolHost(env={}, config_path="/dev/null")) as host:
        res = await host.call({"tool": "exec", "command": "true", "host": "node", "node": "gpu"}, agent="a")
        assert res["details"]["failureKind"] == "unknown-node" and "[nodes.gpu]" in res["text"], res
        res = await host.call({"tool": "exec", "command": "true", "host": "elsewhere"}, agent="a")
        assert res["details"]["failureKind"] == "invalid-params"
        assert all(word in res["text"] for word in ("'auto'", "'sandbox'", "'gateway'", "'node'")), res
        res = await host.call({"tool": "process", "action": "list"}, agent="a")
        assert "nodes" not in res["details"]  # a host without nodes lists as before

"""Hiding a tool's directory whole (one tmpfs instead of a bind per file) where all it holds is hidden, and only
there: real sandboxed runs read what is planted the way an attacker would, through links, ``..`` and the
stores' own variables, and the argv shows what was mounted."""

from __future__ import annotations

import os
import subprocess
from dataclasses import replace
from pathlib import Path

from openclaw_tui.core.containment import credentials, sandbox
from openclaw_tui.core.containment.sandbox import Mask

from ...support.credhome import FOUND, make_host, needs_sandbox, run, write


def planned_argv(workdir: Path) -> list[str]:
    """The argv a sandboxed run in ``workdir`` gets from this process's environment, as the launcher builds it."""
    env = dict(os.environ)
    return sandbox.wrap(["true"], str(workdir), pty=False, network=True, tools=FOUND,
                        secrets=credentials.hidden(env), tool_dirs=credentials.tool_dirs(env))


def mount_of(argv: list[str], path: Path) -> list[str]:
    """The options of each mount onto ``path`` in ``argv``."""
    return [argv[i - 1] if argv[i - 1] != "/dev/null" else argv[i - 2] for i, a in enumerate(argv)
            if a == str(path) and i and argv[i - 1] != str(path)]


@needs_sandbox
async def test_a_tool_directory_of_secrets_is_hidden_whole_and_an_ordinary_entry_keeps_its_files_apart(
        root, tmp_path) -> None:
    home = root / "home"
    write(home / ".docker" / "config.json", "SECRET-docker\n")  # nothing but the login: hidden whole
    write(home / ".claude" / ".credentials.json", "SECRET-claude\n")
    write(home / ".claude" / ".claude.json", "SECRET-claude-2\n")
    write(home / ".config" / "gh" / "hosts.yml", "oauth_token: SECRET-gh\n")
    write(home / ".config" / "gh" / "config.yml", "editor: ordinary-gh\n")  # one ordinary file beside it
    write(home / ".bashrc", "ordinary-bashrc\n")
    argv = planned_argv(root / "work")
    assert mount_of(argv, home / ".docker") == ["--tmpfs"] and mount_of(argv, home / ".claude") == ["--tmpfs"]
    assert str(home / ".docker" / "config.json") not in argv and str(home / ".claude" / ".claude.json") not in argv
    assert mount_of(argv, home / ".config" / "gh" / "hosts.yml") == ["--ro-bind"]
    assert str(home / ".config" / "gh") not in argv and str(home / ".config") not in argv and str(home) not in argv

    look = ("echo docker=$(ls -A ~/.docker) claude=$(ls -A ~/.claude) gh=$(ls -A ~/.config/gh | tr '\\n' ,); "
            "cat ~/.docker/config.json ~/.claude/.credentials.json ~/.config/gh/hosts.yml ~/.config/gh/config.yml "
            "~/.bashrc")
    async with make_host(tmp_path) as host:
        inside = await run(host, f"{{ {look}; touch ~/.docker/planted || echo docker-unwritable; }} 2>&1",
                           workdir=str(root / "work"))
        outside = await run(host, look, workdir=str(root / "work"), elevated=True)
    assert "SECRET" not in inside, inside
    assert "docker= claude= gh=config.yml,hosts.yml," in inside  # the mixed directory keeps its names
    assert "editor: ordinary-gh" in inside and "ordinary-bashrc" in inside and "docker-unwritable" in inside
    assert "SECRET-docker" in outside and "SECRET-claude" in outside and "SECRET-gh" in outside  # the setup
    assert not (home / ".docker" / "planted").exists()


@needs_sandbox
async def test_in_a_writable_workdir_a_tool_directory_of_secrets_keeps_what_the_tool_writes_beside_them(
        root, tmp_path) -> None:
    home = root / "home"
    write(home / ".docker" / "config.json", "SECRET-docker\n")
    argv = planned_argv(home)  # the home directory as the workdir: writable inside
    assert mount_of(argv, home / ".docker" / "config.json") == ["--ro-bind"]
    assert mount_of(argv, home / ".docker") == ["--bind"]  # pinned, not hidden: a write there reaches the disk
    async with make_host(tmp_path) as host:
        inside = await run(host, "echo '{\"buildx\": 1}' > ~/.docker/buildx.json && cat ~/.docker/buildx.json; "
                                 "cat ~/.docker/config.json; echo done", workdir=str(home))
    assert "SECRET" not in inside and '{"buildx": 1}' in inside and "done" in inside, inside
    assert (home / ".docker" / "buildx.json").read_text() == '{"buildx": 1}\n'
    assert (home / ".docker" / "config.json").read_text() == "SECRET-docker\n"


def test_groups_go_deepest_first_and_never_over_a_shown_path_a_link_or_a_writable_mount(root) -> None:
    home = root / "home"
    d, sub = home / "tool", home / "tool" / "sub"
    for rel in ("tool/key", "tool/sub/token"):
        write(home / rel, "SECRET\n")
    secrets = [str(d / "key"), str(sub / "token")]
    tools = [str(d), str(sub)]
    assert sandbox.masks(secrets, None, tool_dirs=tools) == [(str(d), Mask.DIRECTORY)]  # sub first, then all of d
    assert sandbox.masks(secrets, None, tool_dirs=[str(d)]) == [(str(d / "key"), Mask.FILE),
                                                                (str(sub / "token"), Mask.FILE)]
    write(sub / "shown.txt", "public\n")  # in a hidden directory, shown by the operator: d stays as it is
    assert sandbox.masks([str(d / "key"), str(sub)], None, shown=[str(sub / "shown.txt")], tool_dirs=tools) == [
        (str(d / "key"), Mask.FILE), (str(sub), Mask.DIRECTORY), (str(sub / "shown.txt"), Mask.SHOWN)]
    (sub / "shown.txt").unlink()
    assert sandbox.masks(secrets, None, writable=[str(home)], tool_dirs=tools) == [
        (str(d), Mask.PINNED), (str(d / "key"), Mask.FILE), (str(sub), Mask.PINNED), (str(sub / "token"), Mask.FILE)]
    assert sandbox.masks(secrets, str(sub), writable=[str(sub)], tool_dirs=tools)[0] == (str(d / "key"), Mask.FILE)
    (sub / "link").symlink_to(d / "key")  # a link's name is not hidden, only what it points to
    assert (str(sub), Mask.DIRECTORY) not in sandbox.masks(secrets, None, tool_dirs=tools)


def test_tool_directories_are_never_the_home_an_xdg_base_a_runtime_directory_or_tmp() -> None:
    uid = os.getuid()
    env = {"HOME": "/h", "XDG_CONFIG_HOME": "/x/config", "XDG_RUNTIME_DIR": "/r", "DOCKER_CONFIG": "/srv/docker",
           "KUBECONFIG": "/h/kubeconfig:/srv/k/config", "KRB5CCNAME": "FILE:/tmp/krb"}
    dirs = set(credentials.tool_dirs(env))
    assert {"/h/.docker", "/srv/docker", "/h/.config/gh", "/x/config/gh", "/h/.kube", "/srv/k"} <= dirs
    for shared in ("/", "/h", "/h/.config", "/x/config", "/x", "/h/.local/share", "/h/.cache", "/r", f"/run/user/{uid}",
                   "/run/user", "/run", "/tmp"):
        assert shared not in dirs, shared
    assert not any("*" in d for d in dirs)


@needs_sandbox
async def test_an_attacker_finds_no_way_around_a_hidden_tool_directory(root, tmp_path, monkeypatch) -> None:
    home, elsewhere = root / "home", root / "elsewhere"
    write(home / ".docker" / "config.json", "SECRET-docker\n")
    write(elsewhere / "docker" / "config.json", "SECRET-docker-config-var\n")
    write(elsewhere / "gh" / "hosts.yml", "oauth_token: SECRET-gh-var\n")
    write(elsewhere / "gh" / "config.yml", "editor: ordinary\n")
    write(root / "dotfiles" / "codex" / "auth.json", "SECRET-codex\n")
    write(root / "dotfiles" / "cargo-credentials", "SECRET-cargo\n")
    (home / ".codex").symlink_to(root / "dotfiles" / "codex")  # the tool's directory itself a link
    (home / ".cargo").mkdir()
    (home / ".cargo" / "credentials.toml").symlink_to(root / "dotfiles" / "cargo-credentials")  # an entry a link
    (home / "dock").symlink_to(".docker")
    (home / "dock-login").symlink_to(home / ".docker" / "config.json")
    (root / "links").mkdir()
    (root / "links" / "gh").symlink_to(elsewhere / "gh")
    monkeypatch.setenv("DOCKER_CONFIG", f"{root}/work/../elsewhere/docker")  # moved, and spelled with ..
    monkeypatch.setenv("GH_CONFIG_DIR", str(root / "links" / "gh"))  # moved, through a link
    argv = planned_argv(root / "work")
    assert mount_of(argv, elsewhere / "docker") == ["--tmpfs"] and mount_of(argv, home / ".docker") == ["--tmpfs"]
    attack = ("cat ~/dock/config.json ~/dock-login ~/.docker/../.docker/config.json ../home/.docker/config.json "
              "/proc/self/cwd/../home/.docker/config.json /proc/self/root$HOME/.docker/config.json; "
              "cat $DOCKER_CONFIG/config.json ../elsewhere/docker/config.json $GH_CONFIG_DIR/hosts.yml "
              "../links/gh/hosts.yml ../elsewhere/gh/hosts.yml ../elsewhere/gh/../gh/hosts.yml; "
              "cat ~/.codex/auth.json ../dotfiles/codex/auth.json ~/.cargo/credentials.toml ../dotfiles/cargo-credentials; "
              "ls -A ~/dock/ ~/.codex/ ../elsewhere/docker/; find ~ ../elsewhere ../dotfiles -type f | xargs cat; "
              "cat ../elsewhere/gh/config.yml")
    async with make_host(tmp_path) as host:
        inside = await run(host, f"{{ {attack}; }} 2>/dev/null; echo attack-done", workdir=str(root / "work"))
        outside = await run(host, attack, workdir=str(root / "work"), elevated=True)
    assert "attack-done" in inside and "SECRET" not in inside and "config.json" not in inside, inside
    assert "editor: ordinary" in inside  # the moved gh directory's ordinary file still reads
    for secret in ("SECRET-docker\n", "SECRET-docker-config-var", "SECRET-gh-var", "SECRET-codex", "SECRET-cargo"):
        assert secret in outside, secret  # the test's own setup: each is there, and found by each way in


@needs_sandbox
def test_a_hidden_directory_is_unwritable_with_or_without_a_bwrap_that_sets_its_mode(root) -> None:
    secret = write(root / "home" / ".ssh" / "id_ed25519", "SECRET-ssh\n").parent
    for modes, refusal in ((True, "Permission denied"), (False, "Read-only file system")):
        argv = sandbox.wrap(["/bin/sh", "-c", f"ls -A {secret}; cat {secret}/id_ed25519; touch {secret}/planted"],
                            str(root / "work"), pty=False, network=False, tools=replace(FOUND, modes=modes),
                            secrets=[str(secret)])
        done = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)
        assert done.returncode != 0 and done.stdout == "" and refusal in done.stderr, (modes, done)
        assert "SECRET" not in done.stdout + done.stderr and not (secret / "planted").exists()

"""Credentials in real sandboxed runs: a home full of credential stores and a shell full of secrets.

Every test runs real commands under bubblewrap (skipped where it cannot sandbox) against a scratch home
directory outside ``/tmp`` (read-only inside, like a real one), with the test's own variables, and reads
what it plants as an attacker would: ``cat``, directory listings, symlinks, hard links,
``/proc/self/root``, ``umount``, ``env`` and ``/proc/*/environ``. Each also proves its setup on the host
(an elevated run, or the file itself), so a hidden secret is known to be there.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import zipfile
from dataclasses import replace
from pathlib import Path

import pytest

from openclaw_tui.core.config import within
from openclaw_tui.core.containment import credentials, sandbox
from openclaw_tui.core.containment.sandbox import Mask
from openclaw_tui.core.procs.proctable import MARKER

from ...support.credhome import FOUND, make_host, needs_sandbox, run, write

PY = FOUND.python


def plant_every_store(root: Path) -> dict[Path, str]:
    """A secret file at every place the table names under ``root`` (a file, or a directory holding one,
    in turn): the file planted and the secret it holds, one of its own each."""
    places = sorted({Path(p.replace("*", "main")) for p in credentials.places(os.environ) if within(p, str(root))})
    parents = {p for p in places if any(q != p and q.is_relative_to(p) for q in places)}
    planted = {}
    for n, place in enumerate(places):
        as_dir = place in parents or n % 2
        planted[write(place / "secret" if as_dir else place, f"SECRET-{n}-{place.name}\n")] = f"SECRET-{n}-"
    return planted


def reader(work: Path, files: list[Path]) -> str:
    """A script that reads each file and lists each file's directory; returns the command that runs it."""
    script = work / "read-all.sh"
    script.write_text("".join(f"cat '{f}'; ls -A '{f.parent}'\n" for f in files) + "echo read-all-done\n")
    return f"sh {script} 2>/dev/null"


# -- credential stores -----------------------------------------------------------------------------


@needs_sandbox
async def test_every_store_of_the_table_is_empty_inside_and_there_on_the_host(root, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(root / "xdg" / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(root / "xdg" / "data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(root / "xdg" / "cache"))
    for store in credentials.STORES:  # every override variable, pointing somewhere of its own
        if store.override:
            monkeypatch.setenv(store.override, str(root / "over" / store.override))
    monkeypatch.setenv("KUBECONFIG", f"{root}/over/kube-a:{root}/over/kube-b")
    monkeypatch.setenv("KRB5CCNAME", f"FILE:{root}/over/krb5cc")
    planted = plant_every_store(root)
    assert len(planted) > 250, "the table and every override should name a few hundred places"
    command = reader(root / "work", list(planted))
    async with make_host(tmp_path) as host:
        inside = await run(host, command, workdir=str(root / "work"))
        outside = await run(host, command, workdir=str(root / "work"), elevated=True)
    assert "read-all-done" in inside
    leaked = [str(f) for f, secret in planted.items() if secret in inside]
    assert not leaked, f"readable inside: {leaked}"
    missing = [str(f) for f, secret in planted.items() if secret not in outside]
    assert not missing, f"the test's own setup failed: {missing}"


@needs_sandbox
async def test_ordinary_configuration_caches_and_variables_arrive_unchanged(root, tmp_path, monkeypatch) -> None:
    home = root / "home"
    ordinary = [".gitconfig", ".bashrc", ".vimrc", ".config/tool/settings", ".config/gh/config.yml",
                ".config/pip/pip.conf", ".cache/pip/http/x", ".npm/_cacache/x", ".cargo/registry/index/x",
                ".cargo/config.toml", ".m2/repository/x.pom", ".gradle/caches/x", ".cache/huggingface/hub/x",
                ".docker/contexts/meta/x", ".kube/cache/discovery/x", ".ssh-not/x", ".openclaw/workspace/notes.md"]
    for rel in ordinary:
        write(home / rel, f"ordinary {rel}\n")
    for rel in (".config/gh/hosts.yml", ".cargo/credentials.toml", ".docker/config.json", ".m2/settings.xml",
                ".gradle/gradle.properties", ".gem/credentials", ".cache/huggingface/token", ".kube/config"):
        write(home / rel, f"SECRET {rel}\n")  # the credential files beside them
    monkeypatch.setenv("KEYBOARD_LAYOUT", "us-intl")
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Env Author")
    monkeypatch.setenv("EDITOR", "vim")
    files = [home / rel for rel in ordinary] + [home / ".config/gh/hosts.yml", home / ".cargo/credentials.toml"]
    async with make_host(tmp_path) as host:
        out = await run(host, f"{reader(root / 'work', files)}; env", workdir=str(root / "work"))
    for rel in ordinary:
        assert f"ordinary {rel}" in out, rel
    assert "SECRET" not in out
    for variable in ("KEYBOARD_LAYOUT=us-intl", "GIT_AUTHOR_NAME=Env Author", "EDITOR=vim", f"HOME={home}"):
        assert variable in out.splitlines(), variable


@needs_sandbox
async def test_secret_variables_stay_out_but_the_calls_own_env_and_pass_env_arrive(root, tmp_path, monkeypatch) -> None:
    secrets = {"OPENAI_API_KEY": "sk-openai-1", "ANTHROPIC_API_KEY": "sk-ant-2", "GITHUB_TOKEN": "ghp-3",
               "AWS_SECRET_ACCESS_KEY": "aws-4", "AWS_SESSION_TOKEN": "aws-5", "SENTRY_DSN": "https://k6@sentry/1",
               "DATABASE_URL": "postgres://app:pw-7@db/prod", "MYSQL_PWD": "my-8"}
    for name, value in {**secrets, "HF_TOKEN": "hf-9", "PLAIN_SETTING": "plain-10"}.items():
        monkeypatch.setenv(name, value)
    attempts = "env; cat /proc/self/environ /proc/1/environ /proc/[0-9]*/environ | tr '\\0' '\\n'"
    async with make_host(tmp_path, '[tools.exec.sandbox]\npassEnv = ["HF_*"]\n') as host:
        inside = await run(host, attempts, workdir=str(root / "work"))
        chosen = await run(host, "echo agent=$OPENAI_API_KEY", env={"OPENAI_API_KEY": "agent-chose-this"})
        outside = await run(host, "env", elevated=True)
    for name, value in secrets.items():
        assert value not in inside and f"{name}=" not in inside, name
        assert f"{name}={value}" in outside.splitlines(), name  # the gateway keeps the whole environment
    assert "HF_TOKEN=hf-9" in inside.splitlines() and "PLAIN_SETTING=plain-10" in inside.splitlines()
    assert "agent=agent-chose-this" in chosen


# -- as an attacker would --------------------------------------------------------------------------


@pytest.fixture
def keys(root: Path) -> Path:
    """A home with ssh keys, a netrc and a gh login, links to them, and an elevated host's view of them."""
    home = root / "home"
    write(home / ".ssh" / "id_ed25519", "SECRET-ssh-key\n")
    write(home / ".netrc", "machine x login y password SECRET-netrc\n")
    write(home / ".config" / "gh" / "hosts.yml", "oauth_token: SECRET-gh\n")
    (home / "innocent").symlink_to(".netrc")
    (home / "keys").symlink_to(".ssh")
    (home / "gh-login").symlink_to(home / ".config" / "gh" / "hosts.yml")
    return home


ATTACKS = (
    "cat ~/.ssh/id_ed25519 ~/.netrc ~/.config/gh/hosts.yml; ls -A ~/.ssh; find ~/.ssh",
    "cat ~/innocent ~/keys/id_ed25519 ~/gh-login; ls -A ~/keys/",  # links the user made earlier
    "ln -s ~/.netrc made-link && cat made-link; ln ~/.netrc hard-link && cat hard-link; cp ~/.netrc copy; cat copy",
    "cat /proc/self/root$HOME/.netrc /proc/1/root$HOME/.ssh/id_ed25519 /proc/self/cwd/../home/.netrc",
    "umount ~/.ssh; umount -l ~/.netrc; cat ~/.ssh/id_ed25519 ~/.netrc",
    f"{PY} -c \"import os; print(open(os.path.expanduser('~/.netrc')).read()); print(os.listdir(os.path.expanduser('~/.ssh')))\"",
)


@needs_sandbox
@pytest.mark.parametrize("attack", ATTACKS, ids=["read", "old-links", "new-links", "proc-root", "umount", "python"])
async def test_a_hidden_credential_cannot_be_read_from_inside(root, keys, tmp_path, attack: str) -> None:
    async with make_host(tmp_path) as host:
        inside = await run(host, f"{{ {attack}; }} 2>/dev/null; echo attack-done", workdir=str(root / "work"))
        outside = await run(host, f"{ATTACKS[0]}; {ATTACKS[1]}", workdir=str(root / "work"), elevated=True)
    assert "attack-done" in inside and "SECRET" not in inside and "id_ed25519" not in inside, inside
    for secret in ("SECRET-ssh-key", "SECRET-netrc", "SECRET-gh", "id_ed25519"):
        assert secret in outside  # the test's own setup: the host sees them, through the links too


@needs_sandbox
async def test_a_run_in_the_home_directory_cannot_replace_remove_or_move_a_hidden_file(root, keys, tmp_path) -> None:
    # moving a hidden file's directory would carry the secret to a path the next run does not hide
    attack = ("rm -f ~/.netrc; echo replaced > ~/.netrc; mv ~/.netrc ~/moved; touch ~/.ssh/planted; "
              "mv ~/.config/gh ~/gh2; mv ~/.config ~/config2; mv ~/.ssh ~/ssh2; cat ~/moved ~/gh2/hosts.yml; "
              "echo still-writable > ~/.config/gh/new.yml && cat ~/.config/gh/new.yml; echo attack-done")
    async with make_host(tmp_path) as host:
        inside = await run(host, attack, workdir=str(keys))  # the home directory itself is writable now
        again = await run(host, "cat ~/gh2/hosts.yml ~/config2/gh/hosts.yml ~/ssh2/id_ed25519; ls -A ~", workdir=str(keys))
    assert "attack-done" in inside and "still-writable" in inside, inside
    assert "SECRET" not in inside + again, inside + again
    assert (keys / ".netrc").read_text() == "machine x login y password SECRET-netrc\n"
    assert (keys / ".config" / "gh" / "hosts.yml").read_text() == "oauth_token: SECRET-gh\n"
    assert (keys / ".ssh" / "id_ed25519").exists() and not (keys / ".ssh" / "planted").exists()
    holding = {str(p.relative_to(keys)) for p in keys.rglob("*")
               if p.is_file() and not p.is_symlink() and "SECRET" in p.read_text()}
    assert holding == {".netrc", ".config/gh/hosts.yml", ".ssh/id_ed25519"}  # moved, or copied, nowhere


@needs_sandbox
async def test_a_sandboxed_run_creates_nothing_in_the_home_directory(root, tmp_path) -> None:
    write(root / "home" / ".bashrc", "ordinary\n")
    (root / "home" / ".config").mkdir()
    before = sorted(str(p) for p in root.rglob("*") if "state" not in p.parts)
    async with make_host(tmp_path) as host:
        for workdir in (root / "work", root / "home"):  # the home directory read-only, then writable
            out = await run(host, "cat ~/.netrc ~/.ssh/x 2>/dev/null; ls -A ~ && echo listed", workdir=str(workdir))
            assert out.split() == [".bashrc", ".config", "listed"], out
    after = sorted(str(p) for p in root.rglob("*") if "state" not in p.parts)
    assert after == before  # no mount point made for a store that does not exist


# -- the operator's exceptions ---------------------------------------------------------------------


@needs_sandbox
async def test_show_and_pass_env_make_exceptions_per_agent(root, keys, tmp_path, monkeypatch) -> None:
    home = keys
    write(home / ".ssh" / "known_hosts", "github.com ssh-ed25519 PUBLIC-host-key\n")
    write(home / ".npmrc", "//registry.npmjs.org/:_authToken=SHOWN-npm\n")
    write(home / ".kube" / "config", "token: DEPLOY-kube\n")
    monkeypatch.setenv("HF_TOKEN", "SHOWN-hf")
    monkeypatch.setenv("KUBE_TOKEN", "DEPLOY-kube-env")
    config = (f'[tools.exec.sandbox]\nshow = ["{home}/.npmrc", "{home}/.ssh/known_hosts"]\npassEnv = ["HF_TOKEN"]\n'
              f'[agents.deploy.tools.exec.sandbox]\nshow = ["{home}/.kube"]\npassEnv = ["KUBE_*"]\n')
    command = "{ cat ~/.npmrc ~/.ssh/known_hosts ~/.ssh/id_ed25519 ~/.kube/config; ls -A ~/.ssh; env; } 2>/dev/null; echo shown-done"
    async with make_host(tmp_path, config) as host:
        main = await run(host, command, workdir=str(root / "work"))
        deploy = await run(host, command, agent="deploy", workdir=str(root / "work"))
    for out in (main, deploy):
        assert "shown-done" in out and "SHOWN-npm" in out and "PUBLIC-host-key" in out and "HF_TOKEN=SHOWN-hf" in out
        assert "SECRET" not in out and "id_ed25519" not in out  # the rest of ~/.ssh stays hidden
        assert "known_hosts" in out
    assert "DEPLOY" not in main
    assert "token: DEPLOY-kube" in deploy and "KUBE_TOKEN=DEPLOY-kube-env" in deploy


def test_a_shown_path_inside_a_hidden_directory_is_bound_back_between_the_masks(root) -> None:
    home = root / "home"
    for rel in ("d/shown/f", "d/shown/key", "d/other", "plain/f"):
        write(home / rel, "x")
    d = str(home / "d")
    planned = sandbox.masks([d, f"{d}/other", f"{d}/shown/key", str(home / "nothing")], None,
                            shown=[f"{d}/shown", str(home / "plain"), d + "/gone"])
    assert planned == [(d, Mask.DIRECTORY), (f"{d}/shown", Mask.SHOWN), (f"{d}/shown/key", Mask.FILE)]
    assert sandbox.masks([d], None, shown=[d]) == [(d, Mask.DIRECTORY)]  # hiding and showing one path: hidden
    for modes in (True, False):  # the tmpfs's mode keeps it unwritable; an older bwrap remounts it read-only
        tools = replace(FOUND, modes=modes)
        argv = sandbox.wrap(["true"], None, pty=False, network=True, secrets=[d], tools=tools, shown=[f"{d}/shown"])
        at = argv.index(d)
        assert at < argv.index(f"{d}/shown")
        if modes:
            assert argv[at - 3:at] == ["--perms", "0555", "--tmpfs"] and "--remount-ro" not in argv
        else:
            assert argv[at - 1] == "--tmpfs" and "--perms" not in argv
            assert argv.index(f"{d}/shown") < argv.index("--remount-ro") < argv.index("--", at)


# -- git, pip and npm inside -----------------------------------------------------------------------


@needs_sandbox
@pytest.mark.skipif(not shutil.which("git"), reason="git is not installed")
async def test_git_commits_inside_with_the_users_config_while_its_credentials_stay_hidden(root, tmp_path) -> None:
    home = root / "home"
    write(home / ".gitconfig", "[user]\n\tname = Cred Tester\n\temail = t@example.com\n[credential]\n\thelper = store\n"
                               "[init]\n\tdefaultBranch = trunk\n")
    write(home / ".git-credentials", "https://bob:SECRET-git@example.com\n")
    cmd = ("git init -q repo && cd repo && echo x > f && git add f && git commit -qm first && "
           "git log -1 --format='author=%an <%ae> branch=%D' && git config --get credential.helper; cat ~/.git-credentials")
    async with make_host(tmp_path) as host:
        out = await run(host, cmd, workdir=str(root / "work"))
    assert "author=Cred Tester <t@example.com> branch=HEAD -> trunk" in out and "\nstore" in out, out
    assert "SECRET" not in out
    assert (root / "work" / "repo" / ".git" / "HEAD").exists()


def tiny_wheel(where: Path) -> Path:
    """A pure-Python wheel built by hand (a zip with its metadata), so pip installs it with no network
    and no build backend."""
    wheel = where / "tinypkg-1.0-py3-none-any.whl"
    files = {"tinypkg/__init__.py": "HELLO = 'hello from tinypkg'\n",
             "tinypkg-1.0.dist-info/METADATA": "Metadata-Version: 2.1\nName: tinypkg\nVersion: 1.0\n",
             "tinypkg-1.0.dist-info/WHEEL": "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n"}
    files["tinypkg-1.0.dist-info/RECORD"] = "".join(f"{name},,\n" for name in files) + "tinypkg-1.0.dist-info/RECORD,,\n"
    with zipfile.ZipFile(wheel, "w") as z:
        for name, text in files.items():
            z.writestr(name, text)
    return wheel


@pytest.fixture
def pip() -> None:
    if subprocess.run([PY, "-m", "pip", "--version"], capture_output=True, check=False).returncode != 0:
        pytest.skip(f"{PY} has no pip")


@needs_sandbox
async def test_pip_installs_a_local_wheel_inside_and_reads_its_config_but_not_pypirc(root, tmp_path, pip) -> None:
    home = root / "home"
    write(home / ".config" / "pip" / "pip.conf", "[global]\ntimeout = 42\n")
    write(home / ".pypirc", "[pypi]\npassword = SECRET-pypi\n")
    wheel = tiny_wheel(root / "work")
    cmd = (f"{PY} -m pip install -q --no-index --no-deps --disable-pip-version-check --target site {wheel} && "
           f"{PY} -c \"import sys; sys.path.insert(0, 'site'); import tinypkg; print(tinypkg.HELLO)\"; "
           f"{PY} -m pip config list; cat ~/.pypirc")
    async with make_host(tmp_path) as host:
        out = await run(host, cmd, workdir=str(root / "work"))
    assert "hello from tinypkg" in out and "global.timeout='42'" in out, out
    assert "SECRET" not in out


@needs_sandbox
@pytest.mark.skipif(not (shutil.which("npm") and shutil.which("node")), reason="npm or node is not installed")
async def test_npm_installs_a_local_folder_inside_while_npmrc_stays_hidden(root, tmp_path) -> None:
    work = root / "work"
    write(work / "pkg" / "package.json", '{"name": "localpkg", "version": "1.0.0", "main": "index.js"}\n')
    write(work / "pkg" / "index.js", 'module.exports = "hi from localpkg";\n')
    write(work / "package.json", '{"name": "app", "version": "1.0.0"}\n')
    write(root / "home" / ".npmrc", "//registry.npmjs.org/:_authToken=SECRET-npm\n")
    (root / "home" / ".npm").mkdir()
    cmd = ("npm install ./pkg --offline --no-audit --no-fund && node -e 'console.log(require(\"localpkg\"))'; "
           "npm config get //registry.npmjs.org/:_authToken; cat ~/.npmrc")
    async with make_host(tmp_path) as host:
        out = await run(host, cmd, workdir=str(work), timeout=120)
    assert "hi from localpkg" in out, out
    assert "SECRET" not in out


# -- telling the operator --------------------------------------------------------------------------


def _cli(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "openclaw_tui", *args], env=env, capture_output=True, text=True,
                          timeout=60, check=False)


def test_the_sandbox_command_lists_what_is_hidden_and_what_is_shown_by_choice(root, keys, tmp_path) -> None:
    write(keys / ".npmrc", "SECRET-npm\n")
    config = write(tmp_path / "c.toml", f'[tools.exec.sandbox]\nshow = ["{keys}/.npmrc", "{root}/state"]\n'
                                        'passEnv = ["HF_TOKEN"]\n')
    env = {**os.environ, "OPENAI_API_KEY": "sk-value-1", "HF_TOKEN": "hf-value-2", "PLAIN": "x"}
    done = _cli(["--config", str(config), "sandbox"], env)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    for needle in (f"OpenSSH{' ' * 26}{keys}/.ssh", f"{keys}/.netrc", f"{keys}/.config/gh/hosts.yml", "GitHub CLI (gh)",
                   "OPENAI_API_KEY", f"{keys}/.npmrc", "npm (show)", "HF_TOKEN", "(passEnv)"):
        assert needle in out, (needle, out)
    assert "sk-value-1" not in out and "hf-value-2" not in out and "PLAIN" not in out and "SECRET" not in out
    shown = out[out.index("Visible by the operator's choice"):]
    assert "OPENAI_API_KEY" not in shown and ".netrc" not in shown
    assert "stays hidden" in done.stderr and f"{root}/state/openclaw-tui" in done.stderr  # why, on stderr

    refused = _cli(["sandbox"], {**env, MARKER: "brisk-atlas"})
    assert refused.returncode == 2 and "inside a session" in refused.stderr


def test_serve_says_on_start_why_a_shown_state_directory_stays_hidden(root, tmp_path, sock_dir) -> None:
    config = write(tmp_path / "c.toml", f'[tools.exec.sandbox]\nshow = ["{root}/state/openclaw-tui"]\n')
    env = {**os.environ, "OPENCLAW_TUI_CONFIG": str(config), "OPENCLAW_TUI_SOCKET": str(sock_dir / "h.sock")}
    proc = subprocess.Popen([sys.executable, "-m", "openclaw_tui", "serve"], env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert proc.stdout is not None and "serving" in proc.stdout.readline()
    finally:
        proc.send_signal(signal.SIGTERM)
        _, stderr = proc.communicate(timeout=30)
    assert f"show: {root}/state/openclaw-tui is inside {root}/state/openclaw-tui, the host's state directory" in stderr
    assert "stays hidden" in stderr

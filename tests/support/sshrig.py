"""A real OpenSSH server on loopback and real node hosts behind it, for the node tests and ``bench/nodes.py``.

``sshd`` (Debian's ``openssh-server``) runs in the foreground on 127.0.0.1 on a free port, with a host key,
user keys and an ``authorized_keys`` made for the occasion in a private temporary directory. Each node host
is a real ``openclaw-tui serve`` with its own socket and state directory. Two ways in, as operators set
nodes up: a key whose forced command runs the bridge to one node host (``forced``), and a plain key
under which ssh runs the node's ``command`` as given (``plain``: the node's config names the python and
the socket). A third key is not authorized at all. The client side is what a user would write in
``[nodes.NAME]``: ``options`` with ``-F /dev/null``, the key, the port, a known_hosts file holding the
temporary host key and ``StrictHostKeyChecking=yes``. Every process started here is ended by ``close``;
the suite's leftover marker reaches the bridges through their environment, so a bridge left behind fails
the test that left it.
"""

from __future__ import annotations

import json
import os
import pwd
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .isolation import MARK

SSHD = "/usr/sbin/sshd"


def is_serving(path: Path) -> bool:
    """Whether a host answers on ``path`` (a blocking check, for a rig that runs no loop)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(2)
        try:
            sock.connect(str(path))
        except OSError:
            return False
    return True


class RigUnavailable(RuntimeError):
    """sshd or ssh cannot run here (the message says why); tests skip."""


class NodeHost:
    """One ``openclaw-tui serve`` standing for another machine's host."""

    def __init__(self, root: Path, name: str, config: str = "") -> None:
        self.name = name
        self.dir = root / name
        self.dir.mkdir(mode=0o700)
        self.workdir = root / f"{name}-work"  # where its runs start without a workdir (not the socket's dir)
        self.workdir.mkdir()
        self.socket = self.dir / "host.sock"
        self.state = self.dir / "state"
        self.config = self.dir / "config.toml"
        self.config.write_text(config)
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def env(self) -> dict[str, str]:
        return {"OPENCLAW_TUI_SOCKET": str(self.socket), "XDG_STATE_HOME": str(self.state)}

    def start(self) -> None:
        log = open(self.dir / "serve.log", "ab")  # noqa: SIM115  (the child holds it)
        with log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "openclaw_tui", "--config", str(self.config), "serve"],
                env={**os.environ, **self.env}, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                start_new_session=True, cwd=self.workdir,
            )

    def wait_ready(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while not is_serving(self.socket):
            if self.proc is None or self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"node host {self.name} did not come up: {self.log()}")
            time.sleep(0.02)

    def kill(self, sig: int = signal.SIGKILL) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(sig)
            self.proc.wait(30)

    def stop(self) -> None:
        self.kill(signal.SIGTERM)

    def log(self) -> str:
        path = self.dir / "serve.log"
        return path.read_text(errors="replace")[-2000:] if path.exists() else "(no log)"


class SshRig:
    """sshd on loopback, node hosts, and the ``[nodes.*]`` config that reaches them."""

    def __init__(self) -> None:
        for tool in (SSHD, "ssh", "ssh-keygen"):
            if shutil.which(tool) is None:
                raise RigUnavailable(f"{tool} is not installed (Debian: openssh-server, openssh-client)")
        # Short: socket paths must fit a Unix socket address.
        self.root = Path(tempfile.mkdtemp(prefix="oc-ssh-", dir="/tmp"))
        self.user = pwd.getpwuid(os.getuid()).pw_name  # whom sshd lets in: not $USER, which may say otherwise
        self.port = _free_port()
        self.hosts: dict[str, NodeHost] = {}
        self.sshd: subprocess.Popen[bytes] | None = None
        self._authorized: list[str] = []
        self.host_key = self._key("host")
        for key in ("plain", "stranger"):
            self._key(key)
        self.known_hosts = self.root / "known_hosts"
        self.known_hosts.write_text(f"[127.0.0.1]:{self.port} {(self.root / 'keys' / 'host.pub').read_text()}")
        self.authorize("plain")

    # -- set-up ---------------------------------------------------------------------------------
    def _key(self, name: str) -> Path:
        path = self.root / "keys" / name
        path.parent.mkdir(exist_ok=True)
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", f"oc-{name}", "-f", str(path)],
                       check=True, capture_output=True, timeout=30)
        return path

    def authorize(self, key: str, forced: str | None = None) -> None:
        options = "no-pty,no-port-forwarding,no-agent-forwarding,no-X11-forwarding"
        if forced is not None:
            options = f"command={json.dumps(forced)},{options}"
        self._authorized.append(f"{options} {(self.root / 'keys' / f'{key}.pub').read_text().strip()}")
        (self.root / "authorized_keys").write_text("\n".join(self._authorized) + "\n")

    def add_node_host(self, name: str, config: str = "") -> NodeHost:
        """A node host reached through a key of its own whose forced command runs the bridge to it."""
        host = NodeHost(self.root, name, config)
        self.hosts[name] = host
        self._key(name)
        env = " ".join(f"{k}={shlex.quote(v)}" for k, v in {**host.env, MARK: os.environ.get(MARK, "")}.items())
        self.authorize(name, f"env {env} {shlex.quote(sys.executable)} -m openclaw_tui bridge")
        return host

    def start(self) -> None:
        """sshd and every node host (in parallel), waiting until all accept connections."""
        for host in self.hosts.values():
            host.start()
        self.start_sshd()
        for host in self.hosts.values():
            host.wait_ready()

    def start_sshd(self) -> None:
        run_dir = Path("/run/sshd")  # sshd's privilege-separation directory must exist
        try:
            run_dir.mkdir(mode=0o755, exist_ok=True)
        except OSError as exc:
            raise RigUnavailable(f"cannot create {run_dir}: {exc}") from None
        config = self.root / "sshd_config"
        config.write_text("\n".join([
            f"Port {self.port}", "ListenAddress 127.0.0.1", f"HostKey {self.host_key}",
            f"PidFile {self.root / 'sshd.pid'}", f"AuthorizedKeysFile {self.root / 'authorized_keys'}",
            "UsePAM no", "StrictModes no", "PasswordAuthentication no", "KbdInteractiveAuthentication no",
            "PubkeyAuthentication yes", "PermitRootLogin prohibit-password", "LogLevel VERBOSE",
            # bash run by sshd reads ~/.bashrc when SHLVL says it is the first shell: the rig's logins must
            # not depend on the user's start-up files (pyenv's rehash there waits a minute on a stale lock).
            "SetEnv SHLVL=1", "",
        ]))
        with open(self.root / "sshd.log", "ab") as log:
            self.sshd = subprocess.Popen([SSHD, "-D", "-e", "-f", str(config)], stdin=subprocess.DEVNULL,
                                         stdout=log, stderr=log, start_new_session=True)
        deadline = time.monotonic() + 20
        while not _accepts_tcp(self.port):
            if self.sshd.poll() is not None or time.monotonic() > deadline:
                raise RigUnavailable(f"sshd did not start: {self.sshd_log()}")
            time.sleep(0.02)

    # -- the client side ------------------------------------------------------------------------
    def ssh_options(self, key: str) -> list[str]:
        return ["-F", "/dev/null", "-i", str(self.root / "keys" / key), "-p", str(self.port),
                "-o", f"UserKnownHostsFile={self.known_hosts}", "-o", "StrictHostKeyChecking=yes",
                "-o", "BatchMode=yes", "-o", "IdentitiesOnly=yes"]

    def node_toml(self, name: str, key: str | None = None, **extra: str) -> str:
        """A ``[nodes.NAME]`` table reaching this rig with ``key`` (default: the node host's own)."""
        lines = [f"[nodes.{name}]", f"ssh = {json.dumps(f'{self.user}@127.0.0.1')}",
                 f"options = {json.dumps(self.ssh_options(key or name))}"]
        lines += [f"{k} = {json.dumps(v)}" for k, v in extra.items()]
        return "\n".join(lines) + "\n"

    def plain_command(self, host: NodeHost) -> str:
        """A node ``command`` for the plain key: the venv's openclaw-tui, with the node host's state dir
        (its socket is given as the node's ``socket``) and the suite's marker."""
        env = " ".join(f"{k}={shlex.quote(v)}" for k, v in {"XDG_STATE_HOME": str(host.state),
                                                              MARK: os.environ.get(MARK, "")}.items())
        return f"env {env} {shlex.quote(sys.executable)} -m openclaw_tui"

    def write_config(self, text: str, name: str = "local.toml") -> Path:
        path = self.root / name
        path.write_text(text)
        return path

    # -- ending ---------------------------------------------------------------------------------
    def stop_sshd(self) -> None:
        if self.sshd is not None and self.sshd.poll() is None:
            self.sshd.terminate()
            self.sshd.wait(30)

    def close(self) -> None:
        try:
            for host in self.hosts.values():
                host.stop()
            self.stop_sshd()
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def sshd_log(self) -> str:
        path = self.root / "sshd.log"
        return path.read_text(errors="replace")[-3000:] if path.exists() else "(no log)"


A_CONFIG = "[tools.elevated]\nenabled = true\n"  # node a's host config: elevated runs allowed there


def nodes_toml(rig: SshRig) -> str:
    """``[nodes.a]`` (the forced key) and ``[nodes.b]`` (the plain key, naming the venv's python and the
    socket, as a user does when ``openclaw-tui`` is not on ssh's PATH there)."""
    b = rig.hosts["b"]
    return rig.node_toml("a") + rig.node_toml("b", key="plain", command=rig.plain_command(b), socket=str(b.socket))


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _accepts_tcp(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.settimeout(1)
        return s.connect_ex(("127.0.0.1", port)) == 0


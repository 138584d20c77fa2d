"""The credential table as data: every family of the issue, every override variable, credential files rather
than tool directories; what a real sandboxed run then sees is in ``test_sandbox_credentials.py``."""

from __future__ import annotations

import os
import string

import pytest

from openclaw_tui.core.config import within
from openclaw_tui.core.containment import credentials
from openclaw_tui.core.containment.credentials import STORES, Kind

HOME = "/home/u"
ENV = {"HOME": HOME}


def test_every_row_names_its_tool_family_source_and_a_place() -> None:
    fields = {"home", "config", "data", "state", "cache", "runtime", "uid"}
    for store in STORES:
        assert store.tool and store.source and isinstance(store.kind, Kind), store
        assert store.at or store.override, f"{store.tool}: neither a place nor a variable"
        used = {f for _, f, _, _ in string.Formatter().parse(store.at) if f}
        assert used <= fields, store
        assert not store.at or store.at.startswith(("{", "/")), f"{store.tool}: {store.at} is relative"
    rows = [(s.at, s.names, s.override) for s in STORES]
    assert len(rows) == len(set(rows)), "a row is written twice"
    assert {s.kind for s in STORES} == set(Kind)


@pytest.mark.parametrize("tool", [
    "git", "GitHub CLI", "hub", "GitLab CLI", "AWS", "Google Cloud", "Azure", "DigitalOcean", "Oracle", "IBM",
    "Docker", "Podman", "kubectl", "Helm", "npm", "Yarn", "PyPI", "Cargo", "RubyGems", "Maven", "Gradle", "NuGet",
    "Composer", "Terraform", "Vault", "Pulumi", "PostgreSQL", "MySQL", "MongoDB", "pass", "gopass", "GNOME Keyring",
    "KWallet", "Firefox", "Chrome", "Chromium", "rclone", "s3cmd", "Hugging Face", "Kaggle", "Weights & Biases",
    "Codex", "Claude", "Gemini", "Copilot", "Cursor", "OpenClaw", "aider", "OpenSSH", "GnuPG",
])
def test_the_table_knows_every_tool_the_issue_names(tool: str) -> None:
    assert any(tool in s.tool for s in STORES), tool


@pytest.mark.parametrize("relative", [
    ".netrc", ".git-credentials", ".config/git/credentials", ".config/gh/hosts.yml", ".kube/config",
    ".docker/config.json", ".npmrc", ".pypirc", ".pgpass", ".my.cnf", ".codex/auth.json", ".claude/.credentials.json",
    ".openclaw/credentials", ".openclaw/openclaw.json", ".ssh", ".aws", ".config/gcloud", ".gnupg", ".azure",
    ".cargo/credentials.toml", ".m2/settings.xml", ".gradle/gradle.properties", ".gem/credentials",
    ".config/composer/auth.json", ".nuget/NuGet/NuGet.Config", ".terraform.d/credentials.tfrc.json", ".vault-token",
    ".pulumi/credentials.json", ".password-store", ".local/share/keyrings", ".local/share/kwalletd", ".mozilla",
    ".config/google-chrome", ".config/rclone/rclone.conf", ".s3cfg", ".cache/huggingface/token", ".kaggle/kaggle.json",
    ".gemini/oauth_creds.json", ".config/github-copilot/hosts.json", ".copilot/config.json", ".config/cursor/auth.json",
    ".local/share/opencode/auth.json", ".aider/oauth-keys.env", ".config/doctl/config.yaml", ".oci", ".bluemix",
    ".config/helm/repositories.yaml", ".config/containers/auth.json", ".yarnrc.yml", ".Xauthority",
])
def test_well_known_credential_files_are_in_the_table_by_default(relative: str) -> None:
    assert os.path.join(HOME, relative) in credentials.places(ENV)


@pytest.mark.parametrize("ordinary", [
    ".gitconfig", ".config/git/config", ".bashrc", ".zshrc", ".vimrc", ".config/nvim/init.lua", ".cache/pip/x",
    ".npm/_cacache/x", ".cargo/registry/x", ".cargo/bin/rg", ".cargo/config.toml", ".m2/repository/x",
    ".gradle/caches/x", ".cache/huggingface/hub/x", ".docker/contexts/x", ".kube/cache/discovery/x",
    ".config/gh/config.yml", ".config/pip/pip.conf", ".local/bin/tool", ".local/lib/python3.11/site-packages/x",
    ".config/tool/settings", ".openclaw/workspace/notes.md", ".codex/config.toml", ".claude/settings.json",
    ".rustup/toolchains/x", ".nvm/versions/x", ".local/share/uv/python/x",
])
def test_ordinary_configuration_and_caches_are_in_no_hidden_place(ordinary: str) -> None:
    path = os.path.join(HOME, ordinary)
    covering = [p for p in credentials.places(ENV) if within(path, p)]
    assert not covering, f"{path} would be hidden by {covering}"


def test_xdg_directories_and_override_variables_move_what_is_hidden_and_the_default_stays_hidden() -> None:
    env = {
        "HOME": HOME, "XDG_CONFIG_HOME": "/x/config", "XDG_DATA_HOME": "/x/data", "XDG_CACHE_HOME": "/x/cache",
        "XDG_RUNTIME_DIR": "/x/run", "DOCKER_CONFIG": "/o/docker", "KUBECONFIG": "/o/k1:/o/k2:relative/k3",
        "GH_CONFIG_DIR": "/o/gh", "CARGO_HOME": "/o/cargo", "AWS_SHARED_CREDENTIALS_FILE": "/o/aws-creds",
        "AWS_CONFIG_FILE": "/o/aws-config", "CLOUDSDK_CONFIG": "/o/gcloud", "AZURE_CONFIG_DIR": "/o/azure",
        "NPM_CONFIG_USERCONFIG": "/o/npmrc", "PASSWORD_STORE_DIR": "/o/pass", "HF_HOME": "/o/hf",
        "CODEX_HOME": "/o/codex", "CLAUDE_CONFIG_DIR": "/o/claude", "GNUPGHOME": "/o/gnupg",
        "KRB5CCNAME": "FILE:/o/krb5cc", "OPENCLAW_STATE_DIR": "~/oc", "GOOGLE_APPLICATION_CREDENTIALS": "/o/sa.json",
    }
    places = set(credentials.places(env))
    expected = {
        "/x/config/gh/hosts.yml", "/x/data/keyrings", "/x/cache/huggingface/token", "/x/run/containers/auth.json",
        "/o/docker/config.json", "/o/k1", "/o/k2", "/o/gh/hosts.yml", "/o/cargo/credentials.toml", "/o/aws-creds",
        "/o/aws-config", "/o/gcloud", "/o/azure", "/o/npmrc", "/o/pass", "/o/hf/token", "/o/codex/auth.json",
        "/o/claude/.credentials.json", "/o/gnupg", "/o/krb5cc", f"{HOME}/oc/credentials", "/o/sa.json",
        # where the tools look without the variables: a file left there still holds its secret
        f"{HOME}/.config/gh/hosts.yml", f"{HOME}/.docker/config.json", f"{HOME}/.kube/config", f"{HOME}/.gnupg",
    }
    assert expected <= places, sorted(expected - places)
    assert not any("relative" in p for p in places)  # a relative entry would depend on each run's directory


def test_show_takes_the_table_paths_at_or_under_it_out() -> None:
    hidden = credentials.hidden(ENV, (f"{HOME}/.config/gh", f"{HOME}/.npmrc"))
    assert f"{HOME}/.config/gh/hosts.yml" not in hidden and f"{HOME}/.npmrc" not in hidden
    assert f"{HOME}/.ssh" in hidden and f"{HOME}/.docker/config.json" in hidden

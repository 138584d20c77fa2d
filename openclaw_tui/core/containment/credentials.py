"""Where the user's tools keep their credentials: the one table of stores a sandboxed run must find empty,
with the line of each tool's documentation it comes from."""

from __future__ import annotations

import functools
import glob
import itertools
import os
import re
import string
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from ..config import runtime_dirs, within

__all__ = ["STORES", "Kind", "Store", "hidden", "locations", "places", "tool_dirs"]


class Kind(StrEnum):
    """The families of tools the table covers, as the README summarises them."""

    KEYS = "SSH and GPG keys"
    FORGES = "version control and forges"
    CLOUD = "cloud CLIs"
    CLUSTERS = "containers and clusters"
    PACKAGES = "package registries"
    INFRA = "infrastructure tools"
    DATABASES = "databases"
    PASSWORDS = "password managers and keyrings"
    BROWSERS = "browsers and mail clients"
    SYNC = "remote-sync and backup tools"
    ML = "ML hubs"
    AGENTS = "AI agents and assistants"
    SESSIONS = "desktop and network sessions"


@dataclass(frozen=True)
class Store:
    """One tool's credentials: ``at`` (a template of the store, or of the directory holding ``names``),
    the variable that names ``at`` instead (``listed``: a colon-separated list, as ``KUBECONFIG``), and
    ``source``: where that comes from."""

    tool: str
    kind: Kind
    at: str
    names: tuple[str, ...] = ()
    override: str = ""
    source: str = ""
    listed: bool = False


K = Kind
STORES: tuple[Store, ...] = (
    Store("OpenSSH", K.KEYS, "{home}/.ssh", (), "", "ssh(1) FILES: keys, known_hosts and config in ~/.ssh"),
    Store("GnuPG", K.KEYS, "{home}/.gnupg", (), "GNUPGHOME", "gpg(1): GNUPGHOME, else ~/.gnupg"),
    Store("git", K.FORGES, "{home}/.git-credentials", (), "", "git-credential-store(1): ~/.git-credentials"),
    Store("git", K.FORGES, "{config}/git/credentials", (), "",
          "git-credential-store(1): $XDG_CONFIG_HOME/git/credentials"),
    Store("Git Credential Manager", K.FORGES, "{home}/.gcm/store", (), "GCM_PLAINTEXT_STORE_PATH",
          "GCM docs (credential stores): GCM_PLAINTEXT_STORE_PATH, else ~/.gcm/store"),
    Store("netrc (curl, git, Go, Heroku)", K.FORGES, "{home}/.netrc", (), "NETRC",
          "netrc(5), go help gopath-get: $NETRC, else ~/.netrc"),
    Store("GitHub CLI (gh)", K.FORGES, "{config}/gh", ("hosts.yml",), "GH_CONFIG_DIR",
          "gh help environment: GH_CONFIG_DIR, else $XDG_CONFIG_HOME/gh; tokens in hosts.yml"),
    Store("hub", K.FORGES, "{config}/hub", (), "HUB_CONFIG",
          "hub(1): HUB_CONFIG, else ~/.config/hub (oauth_token)"),
    Store("GitLab CLI (glab)", K.FORGES, "{config}/glab-cli", ("config.yml",), "GLAB_CONFIG_DIR",
          "glab docs: GLAB_CONFIG_DIR, else ~/.config/glab-cli; tokens in config.yml"),
    Store("Gitea CLI (tea)", K.FORGES, "{config}/tea", ("config.yml",), "",
          "tea README: logins in ~/.config/tea/config.yml"),
    Store("Subversion", K.FORGES, "{home}/.subversion/auth", (), "",
          "SVN book (client credentials): ~/.subversion/auth"),
    Store("AWS CLI", K.CLOUD, "{home}/.aws", (), "",
          "AWS CLI guide: credentials, config, SSO and role caches in ~/.aws"),
    Store("AWS CLI", K.CLOUD, "", (), "AWS_SHARED_CREDENTIALS_FILE",
          "AWS CLI: AWS_SHARED_CREDENTIALS_FILE names the credentials file"),
    Store("AWS CLI", K.CLOUD, "", (), "AWS_CONFIG_FILE",
          "AWS CLI: AWS_CONFIG_FILE names the config file (it can hold keys)"),
    Store("Google Cloud CLI", K.CLOUD, "{config}/gcloud", (), "CLOUDSDK_CONFIG",
          "gcloud topic configurations: CLOUDSDK_CONFIG, else ~/.config/gcloud"),
    Store("Google Cloud ADC", K.CLOUD, "", (), "GOOGLE_APPLICATION_CREDENTIALS",
          "Google Cloud auth docs: GOOGLE_APPLICATION_CREDENTIALS names a service account key"),
    Store("gsutil / boto", K.CLOUD, "{home}/.boto", (), "BOTO_CONFIG",
          "boto docs: BOTO_CONFIG, else ~/.boto"),
    Store("Azure CLI", K.CLOUD, "{home}/.azure", (), "AZURE_CONFIG_DIR",
          "Azure CLI configuration: AZURE_CONFIG_DIR, else ~/.azure"),
    Store("DigitalOcean (doctl)", K.CLOUD, "{config}/doctl", ("config.yaml",), "",
          "doctl docs: the access token in ~/.config/doctl/config.yaml"),
    Store("Oracle Cloud (oci)", K.CLOUD, "{home}/.oci", (), "",
          "OCI CLI docs: config and API signing keys in ~/.oci"),
    Store("Oracle Cloud (oci)", K.CLOUD, "", (), "OCI_CLI_CONFIG_FILE",
          "OCI CLI docs: OCI_CLI_CONFIG_FILE names the config"),
    Store("IBM Cloud CLI", K.CLOUD, "{home}", (".bluemix",), "IBMCLOUD_HOME",
          "IBM Cloud CLI docs: IBMCLOUD_HOME, else ~; tokens in .bluemix/config.json"),
    Store("Alibaba Cloud CLI", K.CLOUD, "{home}/.aliyun", (), "",
          "Alibaba Cloud CLI docs: access keys in ~/.aliyun/config.json"),
    Store("Hetzner Cloud (hcloud)", K.CLOUD, "{config}/hcloud", ("cli.toml",), "",
          "hcloud README: tokens in ~/.config/hcloud/cli.toml"),
    Store("Linode CLI", K.CLOUD, "{config}/linode-cli", (), "",
          "linode-cli docs: the token in ~/.config/linode-cli"),
    Store("Scaleway CLI", K.CLOUD, "{config}/scw", ("config.yaml",), "",
          "scw docs: keys in ~/.config/scw/config.yaml"),
    Store("Cloudflare (wrangler)", K.CLOUD, "{config}/.wrangler/config", ("default.toml",), "",
          "wrangler docs: wrangler login keeps OAuth tokens in ~/.config/.wrangler/config/default.toml"),
    Store("Cloudflare (wrangler)", K.CLOUD, "{home}/.wrangler/config", ("default.toml",), "",
          "wrangler 1-2: ~/.wrangler/config"),
    Store("Vercel CLI", K.CLOUD, "{data}/com.vercel.cli", ("auth.json",), "",
          "Vercel CLI: the login in com.vercel.cli/auth.json (XDG data)"),
    Store("Netlify CLI", K.CLOUD, "{config}/netlify", ("config.json",), "",
          "Netlify CLI: user tokens in ~/.config/netlify/config.json"),
    Store("Fly.io (flyctl)", K.CLOUD, "{home}/.fly", ("config.yml",), "",
          "flyctl docs: the access token in ~/.fly/config.yml"),
    Store("Firebase CLI", K.CLOUD, "{config}/configstore", ("firebase-tools.json",), "",
          "firebase-tools: tokens in ~/.config/configstore/firebase-tools.json"),
    Store("Supabase CLI", K.CLOUD, "{home}/.supabase", ("access-token",), "",
          "Supabase CLI docs: ~/.supabase/access-token"),
    Store("Databricks CLI", K.CLOUD, "{home}/.databrickscfg", (), "DATABRICKS_CONFIG_FILE",
          "Databricks CLI docs: DATABRICKS_CONFIG_FILE, else ~/.databrickscfg"),
    Store("Docker", K.CLUSTERS, "{home}/.docker", ("config.json",), "DOCKER_CONFIG",
          "docker CLI reference: DOCKER_CONFIG, else ~/.docker; registry logins in config.json"),
    Store("Podman, Buildah, Skopeo", K.CLUSTERS, "{runtime}/containers", ("auth.json",), "",
          "containers-auth.json(5): ${XDG_RUNTIME_DIR}/containers/auth.json"),
    Store("Podman, Buildah, Skopeo", K.CLUSTERS, "{config}/containers", ("auth.json",), "",
          "containers-auth.json(5): $HOME/.config/containers/auth.json"),
    Store("Podman, Buildah, Skopeo", K.CLUSTERS, "", (), "REGISTRY_AUTH_FILE",
          "containers-auth.json(5): REGISTRY_AUTH_FILE names the file"),
    Store("kubectl", K.CLUSTERS, "{home}/.kube/config", (), "KUBECONFIG",
          "kubectl docs (kubeconfig): KUBECONFIG, a colon-separated list, else ~/.kube/config", listed=True),
    Store("kubelogin", K.CLUSTERS, "{home}/.kube/cache/oidc-login", (), "",
          "kubelogin README: token cache in ~/.kube/cache/oidc-login"),
    Store("Helm", K.CLUSTERS, "{config}/helm",
          ("registry/config.json", "repositories.yaml"), "HELM_CONFIG_HOME",
          "helm docs: HELM_CONFIG_HOME, else $XDG_CONFIG_HOME/helm; registry logins and repository passwords"),
    Store("Helm", K.CLUSTERS, "", (), "HELM_REGISTRY_CONFIG",
          "helm docs: HELM_REGISTRY_CONFIG names the registry logins"),
    Store("Helm", K.CLUSTERS, "", (), "HELM_REPOSITORY_CONFIG",
          "helm docs: HELM_REPOSITORY_CONFIG names repositories.yaml"),
    Store("npm", K.PACKAGES, "{home}/.npmrc", (), "NPM_CONFIG_USERCONFIG",
          "npm docs (npmrc): NPM_CONFIG_USERCONFIG, else ~/.npmrc; registry auth tokens"),
    Store("npm", K.PACKAGES, "", (), "npm_config_userconfig",
          "npm docs (config): npm reads npm_config_* in either case"),
    Store("pnpm", K.PACKAGES, "{config}/pnpm", ("rc",), "",
          "pnpm docs (npmrc): the global rc in ~/.config/pnpm/rc"),
    Store("Yarn", K.PACKAGES, "{home}/.yarnrc.yml", (), "",
          "Yarn docs (yarnrc): npmAuthToken in ~/.yarnrc.yml"),
    Store("Bun", K.PACKAGES, "{home}/.bunfig.toml", (), "",
          "bun docs (bunfig.toml): the global file may hold registry tokens"),
    Store("Bun", K.PACKAGES, "{config}/.bunfig.toml", (), "",
          "bun docs (bunfig.toml): $XDG_CONFIG_HOME/.bunfig.toml"),
    Store("PyPI (twine)", K.PACKAGES, "{home}/.pypirc", (), "",
          "PyPA .pypirc spec: index passwords and tokens in ~/.pypirc"),
    Store("Poetry", K.PACKAGES, "{config}/pypoetry", ("auth.toml",), "POETRY_CONFIG_DIR",
          "Poetry docs: POETRY_CONFIG_DIR, else ~/.config/pypoetry; credentials in auth.toml without a keyring"),
    Store("uv", K.PACKAGES, "{data}/uv/credentials", ("credentials.toml",), "",
          "uv docs (authentication): uv auth keeps ~/.local/share/uv/credentials/credentials.toml"),
    Store("Cargo", K.PACKAGES, "{home}/.cargo", ("credentials.toml", "credentials"), "CARGO_HOME",
          "Cargo book (config): CARGO_HOME, else ~/.cargo; tokens in credentials.toml (credentials before 1.39)"),
    Store("RubyGems", K.PACKAGES, "{home}/.gem", ("credentials",), "",
          "RubyGems guides: API keys in ~/.gem/credentials"),
    Store("RubyGems", K.PACKAGES, "{data}/gem", ("credentials",), "",
          "RubyGems 3.4+: $XDG_DATA_HOME/gem/credentials"),
    Store("Maven", K.PACKAGES, "{home}/.m2", ("settings.xml", "settings-security.xml"), "",
          "Maven settings reference: server passwords in settings.xml, the master one in settings-security.xml"),
    Store("Gradle", K.PACKAGES, "{home}/.gradle", ("gradle.properties",), "GRADLE_USER_HOME",
          "Gradle docs (build environment): GRADLE_USER_HOME, else ~/.gradle; credentials in gradle.properties"),
    Store("NuGet", K.PACKAGES, "{home}/.nuget/NuGet", ("NuGet.Config",), "",
          "NuGet docs (config files): packageSourceCredentials in ~/.nuget/NuGet/NuGet.Config"),
    Store("NuGet", K.PACKAGES, "{config}/NuGet", ("NuGet.Config",), "",
          "NuGet on Mono: ~/.config/NuGet/NuGet.Config"),
    Store("Composer", K.PACKAGES, "{config}/composer", ("auth.json",), "COMPOSER_HOME",
          "Composer docs: COMPOSER_HOME, else $XDG_CONFIG_HOME/composer; credentials in auth.json"),
    Store("Composer", K.PACKAGES, "{home}/.composer", ("auth.json",), "",
          "Composer docs: ~/.composer when it exists"),
    Store("Dart / Flutter pub", K.PACKAGES, "{config}/dart", ("pub-credentials.json", "pub-tokens.json"), "",
          "dart pub docs: pub.dev login and tokens in ~/.config/dart"),
    Store("Hex (Elixir)", K.PACKAGES, "{home}/.hex", ("hex.config",), "HEX_HOME",
          "Hex docs: HEX_HOME, else ~/.hex; the API key in hex.config"),
    Store("Conan", K.PACKAGES, "{home}/.conan2", ("credentials.json",), "CONAN_HOME",
          "Conan 2 docs: CONAN_HOME, else ~/.conan2; remote logins in credentials.json"),
    Store("Terraform / OpenTofu", K.INFRA, "{home}/.terraform.d", ("credentials.tfrc.json",), "",
          "Terraform CLI config docs: terraform login writes ~/.terraform.d/credentials.tfrc.json"),
    Store("Vault", K.INFRA, "{home}/.vault-token", (), "",
          "Vault docs (token helpers): the token in ~/.vault-token"),
    Store("Pulumi", K.INFRA, "{home}/.pulumi", ("credentials.json",), "PULUMI_HOME",
          "Pulumi docs: PULUMI_HOME, else ~/.pulumi; access tokens in credentials.json"),
    Store("SOPS (age)", K.INFRA, "{config}/sops/age", ("keys.txt",), "",
          "sops README: age keys in $XDG_CONFIG_HOME/sops/age/keys.txt"),
    Store("SOPS (age)", K.INFRA, "", (), "SOPS_AGE_KEY_FILE",
          "sops README: SOPS_AGE_KEY_FILE names the key file"),
    Store("Chef / knife", K.INFRA, "{home}/.chef", (), "",
          "Chef Workstation docs: client keys and credentials in ~/.chef"),
    Store("PostgreSQL", K.DATABASES, "{home}/.pgpass", (), "PGPASSFILE",
          "libpq docs (password file): PGPASSFILE, else ~/.pgpass"),
    Store("MySQL / MariaDB", K.DATABASES, "{home}/.my.cnf", (), "",
          "MySQL docs (option files): [client] password in ~/.my.cnf"),
    Store("MySQL / MariaDB", K.DATABASES, "{home}/.mylogin.cnf", (), "MYSQL_TEST_LOGIN_FILE",
          "mysql_config_editor docs: MYSQL_TEST_LOGIN_FILE, else ~/.mylogin.cnf"),
    Store("MongoDB Shell", K.DATABASES, "{home}/.mongodb", (), "",
          "mongosh docs: config, history (with connection strings) and logs under ~/.mongodb"),
    Store("Snowflake", K.DATABASES, "{home}/.snowflake",
          ("config.toml", "connections.toml"), "SNOWFLAKE_HOME",
          "Snowflake CLI docs: SNOWFLAKE_HOME, else ~/.snowflake"),
    Store("Snowflake", K.DATABASES, "{home}/.snowsql", ("config",), "",
          "SnowSQL docs: connection passwords in ~/.snowsql/config"),
    Store("Cassandra (cqlsh)", K.DATABASES, "{home}/.cassandra", ("cqlshrc", "credentials"), "",
          "cqlsh docs: ~/.cassandra/cqlshrc and its credentials file"),
    Store("DBeaver", K.DATABASES, "{data}/DBeaverData/workspace6/General/.dbeaver",
          ("credentials-config.json",), "",
          "DBeaver docs: saved connection passwords in the workspace's credentials-config.json"),
    Store("pass", K.PASSWORDS, "{home}/.password-store", (), "PASSWORD_STORE_DIR",
          "pass(1): PASSWORD_STORE_DIR, else ~/.password-store"),
    Store("gopass", K.PASSWORDS, "{data}/gopass", (), "", "gopass docs: stores under $XDG_DATA_HOME/gopass"),
    Store("GNOME Keyring", K.PASSWORDS, "{data}/keyrings", (), "",
          "GNOME Keyring: keyring files in ~/.local/share/keyrings"),
    Store("KWallet", K.PASSWORDS, "{data}/kwalletd", (), "", "KWallet: wallets in ~/.local/share/kwalletd"),
    Store("KWallet", K.PASSWORDS, "{home}/.kde/share/apps/kwallet", (), "",
          "KWallet (KDE 4): ~/.kde/share/apps/kwallet"),
    Store("KWallet", K.PASSWORDS, "{home}/.kde4/share/apps/kwallet", (), "",
          "KWallet (KDE 4): ~/.kde4/share/apps/kwallet"),
    Store("1Password", K.PASSWORDS, "{home}/.1password", (), "",
          "1Password docs (SSH agent): ~/.1password/agent.sock"),
    Store("1Password", K.PASSWORDS, "{config}/op", (), "",
          "1Password CLI docs: the op configuration in ~/.config/op"),
    Store("1Password", K.PASSWORDS, "{config}/1Password", (), "",
          "1Password for Linux: app data in ~/.config/1Password"),
    Store("Bitwarden", K.PASSWORDS, "{config}/Bitwarden CLI", (), "BITWARDENCLI_APPDATA_DIR",
          "Bitwarden CLI docs: BITWARDENCLI_APPDATA_DIR, else ~/.config/Bitwarden CLI"),
    Store("Bitwarden", K.PASSWORDS, "{config}/Bitwarden", (), "",
          "Bitwarden desktop: vault data in ~/.config/Bitwarden"),
    Store("Python keyring (file backends)", K.PASSWORDS, "{data}/python_keyring", (), "",
          "keyrings.alt: the file backends under $XDG_DATA_HOME/python_keyring"),
    Store("Firefox", K.BROWSERS, "{home}/.mozilla", (), "",
          "Mozilla support (profiles): logins, key4.db and cookies in ~/.mozilla"),
    Store("Firefox", K.BROWSERS, "{home}/snap/firefox/common/.mozilla", (), "",
          "Firefox snap: the profiles under ~/snap/firefox"),
    Store("Firefox", K.BROWSERS, "{home}/.var/app/org.mozilla.firefox/.mozilla", (), "",
          "Firefox flatpak: under ~/.var/app"),
    Store("Thunderbird", K.BROWSERS, "{home}/.thunderbird", (), "",
          "Mozilla support: mail passwords in ~/.thunderbird profiles"),
    Store("Thunderbird", K.BROWSERS, "{home}/snap/thunderbird/common/.thunderbird", (), "",
          "Thunderbird snap"),
    Store("Google Chrome", K.BROWSERS, "{config}/google-chrome", (), "",
          "Chromium docs (user data directory): ~/.config/google-chrome"),
    Store("Google Chrome", K.BROWSERS, "{config}/google-chrome-beta", (), "",
          "Chromium docs (user data directory): the beta channel"),
    Store("Google Chrome", K.BROWSERS, "{config}/google-chrome-unstable", (), "",
          "Chromium docs (user data directory): dev"),
    Store("Google Chrome", K.BROWSERS, "{home}/.var/app/com.google.Chrome", (), "",
          "Chrome flatpak: under ~/.var/app"),
    Store("Chromium", K.BROWSERS, "{config}/chromium", (), "",
          "Chromium docs (user data directory): ~/.config/chromium"),
    Store("Chromium", K.BROWSERS, "{home}/snap/chromium/common/chromium", (), "",
          "Chromium snap: under ~/snap/chromium"),
    Store("Chromium", K.BROWSERS, "{home}/.var/app/org.chromium.Chromium", (), "",
          "Chromium flatpak: under ~/.var/app"),
    Store("Brave", K.BROWSERS, "{config}/BraveSoftware", (), "",
          "Brave: profiles in ~/.config/BraveSoftware"),
    Store("Microsoft Edge", K.BROWSERS, "{config}/microsoft-edge", (), "",
          "Edge for Linux: profiles in ~/.config/microsoft-edge"),
    Store("Vivaldi", K.BROWSERS, "{config}/vivaldi", (), "", "Vivaldi: profiles in ~/.config/vivaldi"),
    Store("Opera", K.BROWSERS, "{config}/opera", (), "", "Opera: profiles in ~/.config/opera"),
    Store("NSS shared database", K.BROWSERS, "{home}/.pki/nssdb", (), "",
          "NSS shared DB: client certificates and keys Chromium uses, in ~/.pki/nssdb"),
    Store("rclone", K.SYNC, "{config}/rclone", ("rclone.conf",), "",
          "rclone docs (config): ~/.config/rclone/rclone.conf"),
    Store("rclone", K.SYNC, "{home}/.rclone.conf", (), "", "rclone docs (config): the older ~/.rclone.conf"),
    Store("rclone", K.SYNC, "", (), "RCLONE_CONFIG", "rclone docs: RCLONE_CONFIG names the config file"),
    Store("s3cmd", K.SYNC, "{home}/.s3cfg", (), "", "s3cmd docs: access keys in ~/.s3cfg"),
    Store("s3fs", K.SYNC, "{home}/.passwd-s3fs", (), "", "s3fs README: keys in ~/.passwd-s3fs"),
    Store("BorgBackup", K.SYNC, "{config}/borg/keys", (), "BORG_KEYS_DIR",
          "Borg docs: BORG_KEYS_DIR, else ~/.config/borg/keys"),
    Store("restic", K.SYNC, "", (), "RESTIC_PASSWORD_FILE",
          "restic docs: RESTIC_PASSWORD_FILE names the repository password"),
    Store("Syncthing", K.SYNC, "{state}/syncthing", ("key.pem", "https-key.pem"), "",
          "Syncthing docs: the device key in $XDG_STATE_HOME/syncthing"),
    Store("Syncthing", K.SYNC, "{config}/syncthing", ("key.pem", "https-key.pem"), "",
          "Syncthing before 1.27: ~/.config/syncthing"),
    Store("Dropbox", K.SYNC, "{home}/.dropbox", (), "",
          "Dropbox for Linux: the link to the account in ~/.dropbox"),
    Store("FileZilla", K.SYNC, "{config}/filezilla", ("sitemanager.xml", "recentservers.xml"), "",
          "FileZilla wiki: saved server passwords in sitemanager.xml and recentservers.xml"),
    Store("Hugging Face", K.ML, "{cache}/huggingface", ("token", "stored_tokens"), "HF_HOME",
          "huggingface_hub docs (environment variables): HF_HOME, else $XDG_CACHE_HOME/huggingface; token files only"),
    Store("Hugging Face", K.ML, "", (), "HF_TOKEN_PATH",
          "huggingface_hub docs: HF_TOKEN_PATH names the token file"),
    Store("Hugging Face", K.ML, "{home}/.huggingface", ("token",), "",
          "huggingface_hub before 0.14: ~/.huggingface/token"),
    Store("Kaggle", K.ML, "{home}/.kaggle", ("kaggle.json", "access_token"), "KAGGLE_CONFIG_DIR",
          "Kaggle API README: KAGGLE_CONFIG_DIR, else ~/.kaggle; kaggle.json"),
    Store("Kaggle", K.ML, "{config}/kaggle", ("kaggle.json", "access_token"), "",
          "Kaggle API: $XDG_CONFIG_HOME/kaggle"),
    Store("Weights & Biases", K.ML, "{home}/.netrc", (), "",
          "wandb docs: wandb login writes the API key to ~/.netrc"),
    Store("Comet", K.ML, "{home}/.comet.config", (), "COMET_CONFIG",
          "Comet docs: COMET_CONFIG, else ~/.comet.config (api_key)"),
    Store("ClearML", K.ML, "{home}/clearml.conf", (), "CLEARML_CONFIG_FILE",
          "ClearML docs: CLEARML_CONFIG_FILE, else ~/clearml.conf"),
    Store("MLflow", K.ML, "{home}/.mlflow", ("credentials",), "",
          "MLflow docs (auth): ~/.mlflow/credentials"),
    Store("Modal", K.ML, "{home}/.modal.toml", (), "MODAL_CONFIG_PATH",
          "Modal docs: MODAL_CONFIG_PATH, else ~/.modal.toml"),
    Store("Ollama", K.ML, "{home}/.ollama", ("id_ed25519",), "",
          "Ollama docs: the key that signs in to ollama.com"),
    Store("Codex", K.AGENTS, "{home}/.codex", ("auth.json",), "CODEX_HOME",
          "Codex docs: CODEX_HOME, else ~/.codex; the login in auth.json"),
    Store("Claude Code", K.AGENTS, "{home}/.claude",
          (".credentials.json", ".claude.json"), "CLAUDE_CONFIG_DIR",
          "Claude Code docs: CLAUDE_CONFIG_DIR, else ~/.claude; the login in .credentials.json"),
    Store("Claude Code", K.AGENTS, "{home}/.claude.json", (), "",
          "Claude Code: ~/.claude.json holds the account and MCP servers' settings with their keys"),
    Store("Gemini CLI", K.AGENTS, "{home}/.gemini",
          ("oauth_creds.json", "google_accounts.json", "mcp-oauth-tokens.json", ".env"), "",
          "Gemini CLI docs: the OAuth login in ~/.gemini/oauth_creds.json, API keys in ~/.gemini/.env"),
    Store("Qwen Code", K.AGENTS, "{home}/.qwen", ("oauth_creds.json", ".env"), "",
          "Qwen Code (a Gemini CLI fork): ~/.qwen"),
    Store("GitHub Copilot CLI", K.AGENTS, "{home}/.copilot", ("config.json",), "COPILOT_HOME",
          "Copilot CLI docs (config directory): COPILOT_HOME, else ~/.copilot; authentication in config.json"),
    Store("GitHub Copilot (editors)", K.AGENTS, "{config}/github-copilot", ("hosts.json", "apps.json"), "",
          "copilot.vim and the JetBrains plugin: OAuth tokens in ~/.config/github-copilot"),
    Store("Cursor", K.AGENTS, "{config}/cursor", ("auth.json",), "",
          "Cursor CLI docs: cursor-agent login keeps ~/.config/cursor/auth.json"),
    Store("Cursor", K.AGENTS, "{config}/Cursor/User/globalStorage", ("state.vscdb", "state.vscdb.backup"), "",
          "Cursor (a VS Code fork): session tokens in globalStorage/state.vscdb"),
    Store("OpenClaw", K.AGENTS, "{home}/.openclaw",
          ("credentials", "openclaw.json", ".env", "agents/*/agent/auth-profiles.json"), "OPENCLAW_STATE_DIR",
          "OpenClaw docs: OPENCLAW_STATE_DIR, else ~/.openclaw; credentials/, auth-profiles, openclaw.json keys"),
    Store("OpenClaw", K.AGENTS, "", (), "OPENCLAW_CONFIG_PATH",
          "OpenClaw docs: OPENCLAW_CONFIG_PATH names openclaw.json"),
    Store("OpenClaw", K.AGENTS, "{home}/.clawdbot", ("credentials", "clawdbot.json", ".env"), "",
          "OpenClaw under its earlier name, Clawdbot: ~/.clawdbot"),
    Store("aider", K.AGENTS, "{home}/.aider", ("oauth-keys.env",), "",
          "aider docs: OpenRouter OAuth keys in ~/.aider/oauth-keys.env"),
    Store("aider", K.AGENTS, "{home}/.aider.conf.yml", (), "",
          "aider docs (config): API keys may sit in ~/.aider.conf.yml"),
    Store("dotenv in the home directory", K.AGENTS, "{home}/.env", (), "",
          "aider and Gemini CLI docs: API keys read from ~/.env"),
    Store("OpenCode", K.AGENTS, "{data}/opencode", ("auth.json",), "",
          "OpenCode docs: provider logins in ~/.local/share/opencode/auth.json"),
    Store("Goose", K.AGENTS, "{config}/goose", ("secrets.yaml",), "",
          "Goose docs: secrets.yaml in ~/.config/goose without a keyring"),
    Store("Continue", K.AGENTS, "{home}/.continue", ("config.json", "config.yaml", ".env"), "",
          "Continue docs: apiKey in ~/.continue/config.yaml, secrets in ~/.continue/.env"),
    Store("llm", K.AGENTS, "{config}/io.datasette.llm", ("keys.json",), "LLM_USER_PATH",
          "llm docs: LLM_USER_PATH, else ~/.config/io.datasette.llm; keys.json"),
    Store("Amazon Q Developer CLI", K.AGENTS, "{data}/amazon-q", ("data.sqlite3",), "",
          "Amazon Q CLI: login tokens in ~/.local/share/amazon-q/data.sqlite3"),
    Store("X11", K.SESSIONS, "{home}/.Xauthority", (), "XAUTHORITY",
          "xauth(1): XAUTHORITY, else ~/.Xauthority; the cookie lets a program type into every window"),
    Store("X11 session manager", K.SESSIONS, "{home}/.ICEauthority", (), "ICEAUTHORITY",
          "iceauth(1): ICEAUTHORITY, else ~/.ICEauthority"),
    Store("Kerberos", K.SESSIONS, "/tmp/krb5cc_{uid}", (), "KRB5CCNAME",
          "MIT krb5 docs (ccache types): KRB5CCNAME (FILE: or DIR:), else /tmp/krb5cc_<uid>"),
)
"""Every store, each as its tool documents it (the README summarises the families)."""

_FIELDS = ("home", "config", "data", "state", "cache", "runtime", "uid")
_XDG = {"config": ("XDG_CONFIG_HOME", ".config"), "data": ("XDG_DATA_HOME", ".local/share"),
        "state": ("XDG_STATE_HOME", ".local/state"), "cache": ("XDG_CACHE_HOME", ".cache")}
_READS = ("HOME", "XDG_RUNTIME_DIR", *(var for var, _ in _XDG.values()),
          *sorted({s.override for s in STORES if s.override}))
_TYPED = re.compile(r"[A-Z]+:(?=/)")  # Kerberos' FILE:/path and DIR:/path


def locations(env: Mapping[str, str]) -> tuple[tuple[Store, str], ...]:
    """``(store, path)`` for every place the table names in this environment, existing or not (a path
    with ``*`` is a pattern, expanded at each run)."""
    return _locations(tuple(env.get(name) for name in _READS))


def places(env: Mapping[str, str]) -> tuple[str, ...]:
    """Every path :func:`locations` names, once each."""
    return _places(tuple(env.get(name) for name in _READS))


def hidden(env: Mapping[str, str], shown: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The table's paths a sandboxed run must not see: all of :func:`places` but those at or under a
    path the operator shows (``[tools.exec.sandbox] show``). Cached: it runs at every sandboxed spawn."""
    return _hidden(tuple(env.get(name) for name in _READS), shown)


def tool_dirs(env: Mapping[str, str]) -> tuple[str, ...]:
    """The directories the stores sit in, but for those every tool shares (the home directory, the XDG base
    directories, the runtime directories, ``/tmp`` and what holds them): the directories a sandboxed run
    may find hidden whole when all they hold is hidden (``toolgroups``)."""
    return _tool_dirs(tuple(env.get(name) for name in _READS))


@functools.lru_cache(maxsize=8)
def _tool_dirs(values: tuple[str | None, ...]) -> tuple[str, ...]:
    env = {name: value for name, value in zip(_READS, values) if value is not None}
    shared = [*itertools.chain.from_iterable(_bases(env).values()), "/tmp"]
    dirs = dict.fromkeys(os.path.dirname(p) for p in _places(values) if not glob.has_magic(p))
    return tuple(d for d in dirs if os.path.isabs(d) and not any(within(s, d) for s in shared))


@functools.lru_cache(maxsize=8)
def _locations(values: tuple[str | None, ...]) -> tuple[tuple[Store, str], ...]:
    env = {name: value for name, value in zip(_READS, values) if value is not None}
    bases = _bases(env)
    out: dict[str, Store] = {}
    for store in STORES:
        for path in _expand(store, env, bases):
            out.setdefault(path, store)
    return tuple((store, path) for path, store in out.items())


@functools.lru_cache(maxsize=8)
def _places(values: tuple[str | None, ...]) -> tuple[str, ...]:
    return tuple(path for _, path in _locations(values))


@functools.lru_cache(maxsize=32)
def _hidden(values: tuple[str | None, ...], shown: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(p for p in _places(values) if not any(within(p, s) for s in shown))


def _bases(env: Mapping[str, str]) -> dict[str, list[str]]:
    """What each template field stands for: the home directory, both spellings of each XDG base
    directory, the runtime directories and the uid."""
    home = env.get("HOME") or os.path.expanduser("~")
    bases = {"home": [home], "runtime": runtime_dirs(env), "uid": [str(os.getuid())]}
    for field, (var, default) in _XDG.items():
        given = env.get(var, "")
        bases[field] = list(dict.fromkeys([*([given] if os.path.isabs(given) else []), os.path.join(home, default)]))
    return bases


def _expand(store: Store, env: Mapping[str, str], bases: Mapping[str, list[str]]) -> Iterable[str]:
    roots = _filled(store.at, bases) if store.at else []
    value = env.get(store.override, "") if store.override else ""
    for raw in value.split(os.pathsep) if store.listed else [value]:
        path = _TYPED.sub("", raw, count=1)
        if path == "~" or path.startswith("~/"):  # as a shell would have expanded it, with this HOME
            path = bases["home"][0] + path[1:]
        if os.path.isabs(path):  # a relative value would depend on each run's directory
            roots.append(path)
    for root in dict.fromkeys(os.path.normpath(r) for r in roots):
        yield from (os.path.join(root, name) for name in store.names) if store.names else (root,)


def _filled(template: str, bases: Mapping[str, list[str]]) -> list[str]:
    """``template`` with each field replaced by each of its values (two XDG spellings give two paths)."""
    fields = [f for _, f, _, _ in string.Formatter().parse(template) if f]
    unknown = set(fields) - set(_FIELDS)
    assert not unknown, f"credential table template {template!r} uses unknown fields {unknown}"
    names = list(dict.fromkeys(fields))
    return [template.format(**dict(zip(names, combo))) for combo in itertools.product(*(bases[n] for n in names))]

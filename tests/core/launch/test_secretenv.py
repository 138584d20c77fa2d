"""The rule that keeps the host's secret variables out of sandboxed runs, and ``passEnv``'s exceptions."""

from __future__ import annotations

import pytest

from openclaw_tui.core.launch.secretenv import partition, sandbox_environment, withholds

HOME = "/home/u"


@pytest.mark.parametrize(("name", "value"), [
    ("OPENAI_API_KEY", "sk-1"), ("ANTHROPIC_API_KEY", "sk-ant"), ("GITHUB_TOKEN", "ghp"), ("GH_TOKEN", "ghp"),
    ("AWS_SECRET_ACCESS_KEY", "x"), ("AWS_ACCESS_KEY_ID", "AKIA"), ("AWS_SESSION_TOKEN", "x"), ("HF_TOKEN", "hf"),
    ("PGPASSWORD", "x"), ("MYSQL_PWD", "x"), ("TWINE_PASSWORD", "x"), ("GOOGLE_APPLICATION_CREDENTIALS", "/k.json"),
    ("BORG_PASSPHRASE", "x"), ("COMPOSER_AUTH", "{}"), ("SENTRY_DSN", "https://k@o.ingest.sentry.io/1"),
    ("SLACK_WEBHOOK_URL", "https://hooks.slack.com/services/T/B/x"), ("OP_SESSION_my", "x"), ("BW_SESSION", "x"),
    ("AZURE_STORAGE_CONNECTION_STRING", "AccountKey=x"), ("CI_JOB_JWT", "x"), ("SESSION_COOKIE", "x"),
    ("DATABASE_URL", "postgres://app:hunter2@db/prod"), ("REDIS_URL", "redis://:pw@cache:6379"),
    ("UPSTREAM", "https://ghp_abc@github.com/o/r.git"), ("HTTPS_PROXY", "http://me:pw@proxy:3128"),
])
def test_secret_variables_are_withheld_by_name_well_known_name_or_credential_in_a_url(name: str, value: str) -> None:
    assert withholds(name, value)


@pytest.mark.parametrize(("name", "value"), [
    ("PATH", "/usr/bin"), ("HOME", HOME), ("LANG", "C.UTF-8"), ("PWD", "/w"), ("OLDPWD", "/"), ("TERM", "xterm"),
    ("KEYBOARD_LAYOUT", "us"), ("XKB_KEYMAP", "us"), ("GIT_AUTHOR_NAME", "Bob"), ("GIT_AUTHOR_EMAIL", "b@x"),
    ("TOKENIZERS_PARALLELISM", "false"), ("GPG_AGENT_INFO", "/run/user/1/gnupg/S.gpg-agent"), ("GPG_TTY", "/dev/pts/1"),
    ("KUBECONFIG", "/k"), ("DOCKER_CONFIG", "/d"), ("DATABASE_URL", "postgres://db/prod"),
    ("PIP_INDEX_URL", "https://pypi.org/simple"), ("GIT_ASKPASS", "/bin/true"), ("SSH_CONNECTION", "1 2 3 4"),
])
def test_ordinary_variables_are_not_withheld(name: str, value: str) -> None:
    assert not withholds(name, value)


def test_pass_env_keeps_the_names_and_globs_it_lists_and_only_those() -> None:
    env = {"HF_TOKEN": "a", "HF_API_KEY": "b", "OPENAI_API_KEY": "c", "PATH": "/bin", "hf_token": "d"}
    assert sandbox_environment(env) == {"PATH": "/bin"}
    assert sandbox_environment(env, ("HF_*",)) == {"HF_TOKEN": "a", "HF_API_KEY": "b", "PATH": "/bin"}
    assert partition(env, ("HF_TOKEN",)) == (["HF_API_KEY", "OPENAI_API_KEY", "hf_token"], ["HF_TOKEN"])

"""Session names and ids: verb and target without option values or prompts, no secrets, no id twice."""

from __future__ import annotations

import re

import pytest

from openclaw_tui.core.session import ids
from openclaw_tui.core.session.ids import IssuedIds, new_session_id
from openclaw_tui.core.session.names import SCAN_CHARS, derive_name, first_command_words
from openclaw_tui.core.session.redact import redact
from openclaw_tui.core.session.registry import Registry

from ...support.sessions import start_background


@pytest.mark.parametrize(
    "command, name",
    [
        ("top -d 2", "top"),
        ('read -p "Name? " n', "read"),
        ("read -p 'Continue? [y/N] ' a; echo answer=$a; cat", "read"),
        ("git commit -m x", "git commit"),
        ('node "my server.js" --port 8080', "node my server.js"),
        ("head -n 5 notes.txt", "head notes.txt"),
        ("ssh -p 2222 -i key.pem me@box", "ssh me@box"),
        ("uvicorn --port 8000 app:main", "uvicorn app:main"),
        ("sudo -u bob make install", "sudo make"),
        ("git -C /srv/repo status", "git status"),
        ("deploy -t 30s prod", "deploy prod"),
        ('ask -q "Which one?" backend', "ask backend"),
        ("grep -r 'foo bar' src", "grep foo bar"),  # a quoted word that is not a prompt is a target
        ("tail -f app.log", "tail app.log"),
        ("echo $(date +%s) done", "echo $(date +%s)"),
        ("cmd -- -weird-file", "cmd -weird-file"),
        ("echo 'unterminated quote", "echo unterminated quote"),
        ('echo "a \\" b" c', 'echo a " b'),
    ],
)
def test_names_leave_out_option_values_and_prompts(command: str, name: str) -> None:
    assert derive_name(command) == name


@pytest.mark.parametrize(
    "command, name",
    [
        ("echo OPENAI_API_KEY=sk-proj-r1234567890", "echo OPENAI_API_KEY=***"),
        ("OPENAI_API_KEY=sk-proj-r1234567890", "OPENAI_API_KEY=***"),
        ('printf "%s" "GITHUB_TOKEN=ghp_a b c"', "printf %s"),
        ('echo "DB_PASSWORD=hunter2 and more"', "echo DB_PASSWORD=***"),
        ("echo aws_secret_access_key=abc", "echo aws_secret_access_key=***"),
        ("echo DB_PASS=hunter2", "echo DB_PASS=***"),
        ("deploy --token abc123 prod", "deploy prod"),
        ("deploy --api-key=abc123 prod", "deploy prod"),
        ('curl -H "Authorization: Bearer abc" https://api.example.com/v1', "curl https://api.example.com/v1"),
        ('httpie "Authorization: Bearer abc"', "httpie Authorization: ***"),
        ("curl https://alice:s3cret@example.com/x", "curl https://alice:***@example.com/x"),
        ("git clone https://ghp_abcdef@github.com/o/r", "git clone"),
        ("fetch https://ghp_abcdef@github.com/o/r", "fetch https://***@github.com/o/r"),
        ("psql postgres://bob:hunter2@db/app", "psql postgres://bob:***@db/app"),
        ('bash -c "export API_TOKEN=abc; ./run"', "bash export API_TOKEN=*** ./run"),
    ],
)
def test_names_never_show_secrets(command: str, name: str) -> None:
    assert derive_name(command) == name


@pytest.mark.parametrize(
    "text, masked",
    [
        ("OPENAI_API_KEY=sk-1 PATH=/bin", "OPENAI_API_KEY=*** PATH=/bin"),
        ("--password hunter2 --user bob", "--password *** --user bob"),
        ("--token=abc -v", "--token=*** -v"),
        (
            "curl -H 'Authorization: Bearer abc' -H 'Accept: json'",
            "curl -H 'Authorization: ***' -H 'Accept: json'",
        ),
        ("X-Api-Key: abc123", "X-Api-Key: ***"),
        ("token is Bearer abc.def", "token is Bearer ***"),
        ("https://u:p@h https://plain.example/x", "https://u:***@h https://plain.example/x"),
        ("ssh://git@github.com/o/r", "ssh://git@github.com/o/r"),
        ("MONKEY=1", "MONKEY=***"),  # over-redacting a harmless name is the accepted cost
        ("KEYBOARD=us GIT_AUTHOR_NAME=Bob", "KEYBOARD=us GIT_AUTHOR_NAME=Bob"),  # parts that name no secret
        ("GIT_AUTHOR_TOKEN=t AUTHORIZATION=x", "GIT_AUTHOR_TOKEN=*** AUTHORIZATION=***"),  # other parts still count
        ("gpg --passphrase hunter2 -c f", "gpg --passphrase *** -c f"),
        ("PWD=/home/me HOME=/root", "PWD=/home/me HOME=/root"),
    ],
)
def test_redaction_masks_values_and_keeps_the_rest(text: str, masked: str) -> None:
    assert redact(text) == masked


@pytest.mark.parametrize(
    "hostile",
    ids=lambda text: f"{text[:8]!r}x{len(text)}",
    argvalues=[
        "A" * 500_000,
        "a-" * 250_000,
        '"' + '\\"' * 250_000,
        "$(" * 250_000,
        "token-" * 80_000,
        "x=" * 250_000,
        "-a " * 100_000,
        "http://" * 70_000,
        "Authorization:" * 30_000,
        "'" * 500_000,
    ],
)
def test_names_read_only_the_start_of_a_long_command(hostile: str) -> None:
    """Same words as from the first SCAN_CHARS alone: a megabyte command costs what a short one does."""
    assert first_command_words(hostile) == first_command_words(hostile[:SCAN_CHARS])
    assert len(derive_name(hostile)) <= 100


def test_ids_are_never_issued_twice_while_the_slugs_run_out() -> None:
    issued = IssuedIds()
    for _ in range(60_000):  # eleven times the 5,250 two-word slugs
        session_id = new_session_id(issued)
        assert session_id not in issued
        issued.add(session_id)
    assert len(issued) == 60_000
    assert all(re.fullmatch(r"[a-z]+-[a-z]+(-[0-9a-z]+)?", i) for i in issued)


def test_a_crowded_slug_falls_back_to_a_growing_random_suffix(monkeypatch) -> None:
    monkeypatch.setattr(ids.secrets, "choice", lambda seq: seq[0])  # every draw hits the same slug and word
    base = f"{ids.ADJECTIVES[0]}-{ids.NOUNS[0]}"
    taken = IssuedIds([base, *(f"{base}-{n}" for n in range(2, 10)), f"{base}-{ids.NOUNS[0]}"])
    fresh = new_session_id(taken)
    assert re.fullmatch(re.escape(base) + r"-[0-9a-f]{4,}", fresh)


def test_the_registry_remembers_ids_after_their_sessions_are_gone() -> None:
    registry = Registry(on_removed=lambda s: None, issued=IssuedIds(["kept-from-before"]))
    seen = {registry.new_id() for _ in range(20_000)}
    assert len(seen) == 20_000 and "kept-from-before" not in seen
    assert set(registry.issued) == seen | {"kept-from-before"}


async def test_a_removed_sessions_id_stays_unknown_when_the_same_slug_comes_up(host, monkeypatch) -> None:
    monkeypatch.setattr(ids.secrets, "choice", lambda seq: seq[0])  # every new id draws the same slug
    first = await start_background(host.call, "sleep 30", agent="a")
    await host.call({"tool": "process", "action": "remove", "sessionId": first}, agent="a")
    second = await start_background(host.call, "sleep 30", agent="a")
    assert second != first and second.startswith(first)
    stale = await host.call({"tool": "process", "action": "poll", "sessionId": first}, agent="a")
    assert stale["details"]["failureKind"] == "unknown-session"
    assert "no session" in stale["text"] and "list" in stale["text"]
    await host.call({"tool": "process", "action": "kill", "sessionId": second}, agent="a")


@pytest.mark.parametrize("command", ["", "   ", "\t\n  "])
async def test_a_blank_command_is_refused_like_an_empty_one(host, command: str) -> None:
    r = await host.call({"tool": "exec", "command": command}, agent="a")
    assert r["details"]["status"] == "failed" and r["details"]["failureKind"] == "invalid-params"
    assert "command" in r["text"] and "empty" in r["text"]
    assert host.sessions() == []


async def test_list_and_exit_notice_show_the_masked_name_and_details_keep_the_command(host) -> None:
    command = "echo OPENAI_API_KEY=sk-proj-r1234567890 >/dev/null; sleep 0.3; echo done"
    sid = await start_background(host.call, command, agent="a")
    listed = await host.call({"tool": "process", "action": "list"}, agent="a")
    assert "OPENAI_API_KEY=***" in listed["text"] and "sk-proj" not in listed["text"]
    session = host.session(sid)
    await session.done.wait()
    assert session.details()["name"] == "echo OPENAI_API_KEY=***"
    assert "sk-proj-r1234567890" in session.details()["command"]
    nxt = await host.call({"tool": "process", "action": "list"}, agent="a")
    notices = nxt["details"].get("notifications") or []
    assert notices and all("sk-proj" not in n["text"] and "OPENAI_API_KEY=***" in n["text"] for n in notices)

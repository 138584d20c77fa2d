"""Key-token encoding: every named key, modifiers, ^X, hex, literal text, cursor modes and paste."""

from __future__ import annotations

import pytest

from openclaw_tui.core.tools.keys import (
    KEY_NAMES,
    SUBMIT,
    EncodedKeys,
    KeyEncodingError,
    RefusedKey,
    encode_keys,
    key_line_tokens,
    paste_bytes,
)

ESC = b"\x1b"

NAMED = [
    ("Enter", b"\r"),
    ("Tab", b"\t"),
    ("Escape", ESC),
    ("Esc", ESC),
    ("Space", b" "),
    ("BSpace", b"\x7f"),
    ("BTab", b"\x1b[Z"),
    ("Up", b"\x1b[A"),
    ("Down", b"\x1b[B"),
    ("Right", b"\x1b[C"),
    ("Left", b"\x1b[D"),
    ("Home", b"\x1b[H"),
    ("End", b"\x1b[F"),
    ("PageUp", b"\x1b[5~"),
    ("PgUp", b"\x1b[5~"),
    ("PPage", b"\x1b[5~"),
    ("PageDown", b"\x1b[6~"),
    ("PgDn", b"\x1b[6~"),
    ("NPage", b"\x1b[6~"),
    ("Insert", b"\x1b[2~"),
    ("IC", b"\x1b[2~"),
    ("Delete", b"\x1b[3~"),
    ("Del", b"\x1b[3~"),
    ("DC", b"\x1b[3~"),
    ("F1", b"\x1bOP"),
    ("F2", b"\x1bOQ"),
    ("F3", b"\x1bOR"),
    ("F4", b"\x1bOS"),
    ("F5", b"\x1b[15~"),
    ("F6", b"\x1b[17~"),
    ("F7", b"\x1b[18~"),
    ("F8", b"\x1b[19~"),
    ("F9", b"\x1b[20~"),
    ("F10", b"\x1b[21~"),
    ("F11", b"\x1b[23~"),
    ("F12", b"\x1b[24~"),
    *[(f"KP{d}", str(d).encode()) for d in range(10)],
    ("KP/", b"/"),
    ("KP*", b"*"),
    ("KP-", b"-"),
    ("KP+", b"+"),
    ("KP.", b"."),
    ("KPEnter", b"\r"),
]


@pytest.mark.parametrize(("token", "expected"), NAMED)
def test_named_key(token: str, expected: bytes) -> None:
    assert encode_keys([token]) == EncodedKeys(expected, [])


@pytest.mark.parametrize(("token", "expected"), NAMED)
def test_named_keys_are_case_insensitive(token: str, expected: bytes) -> None:
    assert encode_keys([token.lower()]).data == expected
    assert encode_keys([token.upper()]).data == expected


def test_key_names_lists_every_named_key_sorted() -> None:
    assert KEY_NAMES == sorted(KEY_NAMES)
    assert {token for token, _ in NAMED} == set(KEY_NAMES)


MODIFIED = [
    # control characters
    ("C-c", b"\x03"),
    ("C-C", b"\x03"),
    ("c-c", b"\x03"),
    ("C-a", b"\x01"),
    ("C-z", b"\x1a"),
    ("C-@", b"\x00"),
    ("C-2", b"\x00"),
    ("C-Space", b"\x00"),
    ("C- ", b"\x00"),
    ("C-[", ESC),
    ("C-3", ESC),
    ("C-\\", b"\x1c"),
    ("C-4", b"\x1c"),
    ("C-]", b"\x1d"),
    ("C-5", b"\x1d"),
    ("C-^", b"\x1e"),
    ("C-6", b"\x1e"),
    ("C-_", b"\x1f"),
    ("C-/", b"\x1f"),
    ("C-7", b"\x1f"),
    ("C-?", b"\x7f"),
    ("C-8", b"\x7f"),
    # meta and shift on characters
    ("M-x", b"\x1bx"),
    ("m-x", b"\x1bx"),
    ("M-X", b"\x1bX"),
    ("C-M-x", b"\x1b\x18"),
    ("C-S-a", b"\x01"),  # a control byte has no case: shift is absorbed, as in xterm
    ("M-C-x", b"\x1b\x18"),
    ("S-a", b"A"),
    ("S-A", b"A"),
    ("S-\u00e9", "\u00c9".encode()),
    ("M-S-a", b"\x1bA"),
    ("M-Enter", b"\x1b\r"),
    ("M-BSpace", b"\x1b\x7f"),
    ("M-Escape", b"\x1b\x1b"),
    ("M-Space", b"\x1b "),
    ("M-Tab", b"\x1b\t"),
    ("M-\u00e9", "\x1b\u00e9".encode()),
    ("M-KP5", b"\x1b5"),
    ("C-M-Space", b"\x1b\x00"),
    # back-tab
    ("S-Tab", b"\x1b[Z"),
    ("s-tab", b"\x1b[Z"),
    ("S-BTab", b"\x1b[Z"),
    ("M-S-Tab", b"\x1b\x1b[Z"),
    ("M-BTab", b"\x1b\x1b[Z"),
    # cursor keys
    ("S-Up", b"\x1b[1;2A"),
    ("M-Down", b"\x1b[1;3B"),
    ("M-S-Down", b"\x1b[1;4B"),
    ("C-Right", b"\x1b[1;5C"),
    ("C-S-Left", b"\x1b[1;6D"),
    ("C-M-Left", b"\x1b[1;7D"),
    ("C-M-S-Up", b"\x1b[1;8A"),
    ("S-Home", b"\x1b[1;2~"),
    ("C-Home", b"\x1b[1;5~"),
    ("M-C-End", b"\x1b[4;7~"),
    ("C-M-End", b"\x1b[4;7~"),
    # tilde keys
    ("S-PageUp", b"\x1b[5;2~"),
    ("C-PgDn", b"\x1b[6;5~"),
    ("M-Insert", b"\x1b[2;3~"),
    ("C-Delete", b"\x1b[3;5~"),
    ("C-F5", b"\x1b[15;5~"),
    ("S-F12", b"\x1b[24;2~"),
    # F1-F4 modified
    ("S-F1", b"\x1b[1;2P"),
    ("M-F2", b"\x1b[1;3Q"),
    ("C-F3", b"\x1b[1;5R"),
    ("C-S-F4", b"\x1b[1;6S"),
    # ^X
    ("^c", b"\x03"),
    ("^C", b"\x03"),
    ("^?", b"\x7f"),
    ("^@", b"\x00"),
    ("^space", b"\x00"),
    ("^Space", b"\x00"),
    ("^[", ESC),
    ("^\\", b"\x1c"),
    ("^^", b"\x1e"),
    ("^Up", b"\x1b[1;5A"),
    ("M-^c", b"\x1b\x03"),
    # lone prefix characters are just characters
    ("^", b"^"),
    ("-", b"-"),
    ("C--", b"-"),  # warns (checked below)
]


@pytest.mark.parametrize(("token", "expected"), MODIFIED)
def test_modified_key(token: str, expected: bytes) -> None:
    assert encode_keys([token]).data == expected


@pytest.mark.parametrize(
    "token",
    ["C-c", "M-x", "S-a", "C-Right", "M-C-End", "S-Tab", "^c", "C-M-Space", "S-F1", "C-8"],
)
def test_clean_modified_keys_do_not_warn(token: str) -> None:
    assert encode_keys([token]).warnings == []


@pytest.mark.parametrize(
    ("token", "expected", "fragment"),
    [
        ("C--", b"-", "C-"),
        ("C-\u00e9", "\u00e9".encode(), "C-"),
        ("C-Enter", b"\r", "C-"),
        ("C-Tab", b"\t", "C-"),
        ("C-BTab", b"\x1b[Z", "C-"),
        ("S-1", b"1", "S-"),
        ("S-Enter", b"\r", "S-"),
    ],
)
def test_modifier_without_an_encoding_is_dropped_with_warning(
    token: str, expected: bytes, fragment: str
) -> None:
    result = encode_keys([token])
    assert result.data == expected
    assert len(result.warnings) == 1
    assert token in result.warnings[0] and fragment in result.warnings[0]


@pytest.mark.parametrize(
    ("token", "expected"),
    [
        ("a", b"a"),
        ("A", b"A"),
        ("\u00e9", b"\xc3\xa9"),
        ("\u4f60", b"\xe4\xbd\xa0"),
        ("\U0001f600", b"\xf0\x9f\x98\x80"),
    ],
)
def test_single_character_is_sent_as_utf8(token: str, expected: bytes) -> None:
    assert encode_keys([token]) == EncodedKeys(expected, [])


SPELLINGS = [
    # what agents write, and the tmux token it means
    ("Ctrl-C", "C-c"), ("Ctrl+C", "C-c"), ("ctrl-c", "C-c"), ("CTRL+c", "C-c"), ("Control-c", "C-c"),
    ("Ctl-c", "C-c"), ("C+c", "C-c"), ("^C", "C-c"), ("Ctrl-Shift-C", "C-c"),
    ("Return", "Enter"), ("return", "Enter"), ("Esc", "Escape"), ("Del", "Delete"), ("Ins", "Insert"),
    ("PgUp", "PageUp"), ("PgDn", "PageDown"), ("Page_Up", "PageUp"), ("Page_Down", "PageDown"),
    ("Backspace", "BSpace"), ("BackSpace", "BSpace"), ("BackTab", "BTab"),
    ("ArrowUp", "Up"), ("ArrowDown", "Down"), ("ArrowLeft", "Left"), ("ArrowRight", "Right"),
    ("Alt-x", "M-x"), ("Alt+x", "M-x"), ("Meta-x", "M-x"), ("Option-x", "M-x"), ("Alt-F4", "M-F4"),
    ("Shift-Tab", "S-Tab"), ("Shift+Tab", "S-Tab"), ("Shift-Up", "S-Up"), ("Ctrl-Alt-Delete", "C-M-Delete"),
    ("Ctrl-Shift-Left", "C-S-Left"), ("Ctrl-Enter", "C-Enter"), ("Alt-Return", "M-Enter"),
    ("F13", "S-F1"), ("F24", "S-F12"), ("Ctrl-F13", "C-S-F1"),
]


@pytest.mark.parametrize(("spelling", "token"), SPELLINGS)
def test_spellings_agents_write_are_the_keys_they_mean(spelling: str, token: str) -> None:
    ours, tmux = encode_keys([spelling], app_cursor=False), encode_keys([token], app_cursor=False)
    assert ours.data == tmux.data and len(ours.warnings) == len(tmux.warnings)


@pytest.mark.parametrize(
    ("token", "suggestion"),
    [("Entr", "Enter"), ("Escpae", "Escape"), ("Ctlr-C", "Ctrl-C"), ("Retrun", "Return"), ("enterr", "Enter"),
     ("Shfit-Tab", "Shift-Tab"), ("C-Entr", "C-Enter"), ("Ctrl-Shfit-Tab", "Ctrl-Shift-Tab"), ("Dwon", "Down"),
     ("Backspcae", "Backspace"), ("PageDwon", "PageDown"), ("Tabb", "Tab")],
)
def test_a_near_miss_of_a_key_name_is_refused_with_a_suggestion(token: str, suggestion: str) -> None:
    with pytest.raises(RefusedKey) as refused:
        encode_keys(["C-c", token])  # the whole request: nothing of it is sent
    assert f"did you mean {suggestion}?" in str(refused.value) and "Nothing was sent" in str(refused.value)
    assert "literal" in str(refused.value)


@pytest.mark.parametrize("token", ["Cmd-C", "cmd+v", "Super-x", "Win-r"])
def test_gui_only_modifiers_are_refused(token: str) -> None:
    with pytest.raises(RefusedKey, match="never reach a program through a terminal"):
        encode_keys([token])


@pytest.mark.parametrize("token", ["hello", "C-foo", "F25x", "S-", "and", "night", "cd", "ls", "yes", "salt-x",
                                   "hello world", "rm -rf", "well-known", "a.b"])
def test_unknown_token_is_sent_literally_with_warning(token: str) -> None:
    result = encode_keys([token])
    assert result.data == token.encode()
    assert len(result.warnings) == 1
    assert repr(token) in result.warnings[0]
    assert "unknown" in result.warnings[0]


def test_a_prompt_line_is_read_by_the_same_parser() -> None:
    assert key_line_tokens('"yes" Ctrl-C Return') == ["y", "e", "s", "Ctrl-C", "Return"]
    assert key_line_tokens("'a b' Enter") == ["a", "Space", "b", "Enter"]
    with pytest.raises(KeyEncodingError, match=r"did you mean Enter\? Nothing was sent \(put text in quotes\)"):
        key_line_tokens('"ada" Entr')
    with pytest.raises(KeyEncodingError, match="not a key: hello"):
        key_line_tokens("hello Enter")
    with pytest.raises(KeyEncodingError, match="nothing to send"):
        key_line_tokens("   ")


def test_empty_token_is_skipped_with_warning() -> None:
    result = encode_keys(["", "a"])
    assert result.data == b"a"
    assert result.warnings == ["empty key token; skipped"]


@pytest.mark.parametrize(
    ("items", "expected"),
    [
        (["c3"], b"\xc3"),
        (["0xc3"], b"\xc3"),
        (["0XFF"], b"\xff"),
        (["ff", "00"], b"\xff\x00"),
        (["c3 a9"], b"\xc3\xa9"),
        (["  0x1b\t5b  41 "], b"\x1b[A"),
        (["f"], b"\x0f"),
    ],
)
def test_hex_good(items: list[str], expected: bytes) -> None:
    assert encode_keys(hex=items) == EncodedKeys(expected, [])


@pytest.mark.parametrize(
    ("items", "expected", "bad"),
    [
        (["zz", "41"], b"A", "'zz'"),
        (["100", "41"], b"A", "'100'"),
        (["", "41"], b"A", "''"),
        (["41 0x 42"], b"AB", "'0x'"),
        (["41", "0xfff"], b"A", "'0xfff'"),
    ],
)
def test_hex_bad_byte_is_skipped_with_warning(items: list[str], expected: bytes, bad: str) -> None:
    result = encode_keys(hex=items)
    assert result.data == expected
    assert len(result.warnings) == 1
    assert bad in result.warnings[0] and "skipped" in result.warnings[0]


def test_literal_then_hex_then_keys_exact_bytes() -> None:
    result = encode_keys(["C-c", "Enter"], hex=["c3 a9 00 ff"], literal="\u4f60\u597d\U0001f600")
    assert result.data == b"\xe4\xbd\xa0\xe5\xa5\xbd\xf0\x9f\x98\x80\xc3\xa9\x00\xff\x03\r"
    assert len(result.data) == 16
    assert result.warnings == []


def test_keys_keep_their_order() -> None:
    assert encode_keys(["a", "Tab", "b", "Enter"]).data == b"a\tb\r"


def test_literal_with_lone_surrogate_warns_instead_of_failing() -> None:
    result = encode_keys(literal="a\ud800b")
    assert result.data == b"a?b"
    assert len(result.warnings) == 1


@pytest.mark.parametrize(
    ("token", "expected"),
    [
        ("Up", b"\x1bOA"),
        ("Down", b"\x1bOB"),
        ("Right", b"\x1bOC"),
        ("Left", b"\x1bOD"),
        ("Home", b"\x1bOH"),
        ("End", b"\x1bOF"),
        # modified and non-cursor keys do not depend on the mode
        ("C-Up", b"\x1b[1;5A"),
        ("S-End", b"\x1b[4;2~"),
        ("PageUp", b"\x1b[5~"),
        ("F1", b"\x1bOP"),
        ("KP1", b"1"),
    ],
)
def test_application_cursor_mode(token: str, expected: bytes) -> None:
    assert encode_keys([token], app_cursor=True).data == expected


@pytest.mark.parametrize("token", ["Up", "down", "Right", "Left", "Home", "End"])
def test_unknown_cursor_mode_refuses_plain_cursor_keys(token: str) -> None:
    with pytest.raises(KeyEncodingError, match="poll"):
        encode_keys(["a", token], app_cursor=None)


@pytest.mark.parametrize(
    ("token", "expected"),
    [
        ("C-Up", b"\x1b[1;5A"),
        ("S-Home", b"\x1b[1;2~"),
        ("M-Left", b"\x1b[1;3D"),
        ("PageDown", b"\x1b[6~"),
        ("a", b"a"),
    ],
)
def test_unknown_cursor_mode_allows_unambiguous_keys(token: str, expected: bytes) -> None:
    assert encode_keys([token], app_cursor=None).data == expected


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"keys": []}, {"hex": []}, {"literal": ""}, {"keys": None, "hex": None, "literal": None}],
)
def test_nothing_to_send_raises(kwargs: dict[str, object]) -> None:
    with pytest.raises(KeyEncodingError, match="nothing to send"):
        encode_keys(**kwargs)  # type: ignore[arg-type]


def test_everything_skipped_raises_and_names_the_problems() -> None:
    with pytest.raises(KeyEncodingError, match="zz"):
        encode_keys(hex=["zz"])


def test_key_encoding_error_is_a_value_error() -> None:
    assert issubclass(KeyEncodingError, ValueError)


def test_submit_is_carriage_return() -> None:
    assert SUBMIT == b"\r"


@pytest.mark.parametrize(
    ("text", "bracketed", "expected"),
    [
        ("hi\nthere", True, b"\x1b[200~hi\nthere\x1b[201~"),
        ("hi\nthere", False, b"hi\nthere"),
        ("\u00e9\U0001f600", True, b"\x1b[200~\xc3\xa9\xf0\x9f\x98\x80\x1b[201~"),
        ("", True, b"\x1b[200~\x1b[201~"),
        ("a\x1b[201~rm -rf x\n", True, b"\x1b[200~arm -rf x\n\x1b[201~"),
        ("a\x1b[20\x1b[201~1~b", True, b"\x1b[200~ab\x1b[201~"),
        ("a\x1b[201~b", False, b"a\x1b[201~b"),
    ],
)
def test_paste_bytes(text: str, bracketed: bool, expected: bytes) -> None:
    assert paste_bytes(text, bracketed) == expected


def test_paste_bytes_bracketed_by_default() -> None:
    assert paste_bytes("x") == b"\x1b[200~x\x1b[201~"

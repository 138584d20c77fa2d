"""The reconnect back-off the dashboard's host link, a node's link and the fleet pace their tries by."""

from __future__ import annotations

from openclaw_tui.remote.wire import ReconnectBackoff


def test_pauses_double_from_the_first_up_to_the_longest() -> None:
    backoff = ReconnectBackoff(0.05, 1.0)
    assert [backoff.failed() for _ in range(8)] == [0.05, 0.1, 0.2, 0.4, 0.8, 1.0, 1.0, 1.0]
    assert backoff.failures == 8


def test_a_success_starts_again_from_the_first_pause() -> None:
    backoff = ReconnectBackoff(0.25, 10.0)
    assert [backoff.failed() for _ in range(3)] == [0.25, 0.5, 1.0]
    backoff.succeeded()
    assert (backoff.failures, backoff.pause) == (0, 0.25)
    assert [backoff.failed() for _ in range(2)] == [0.25, 0.5]


def test_the_pause_is_the_first_until_a_second_failure_in_a_row() -> None:
    # What a node's link reads when a call asks whether the last try is old enough to try again.
    backoff = ReconnectBackoff(1.0, 10.0)
    seen = [backoff.pause]
    for _ in range(6):
        backoff.failed()
        seen.append(backoff.pause)
    assert seen == [1.0, 1.0, 2.0, 4.0, 8.0, 10.0, 10.0]


def test_a_node_down_for_days_keeps_the_longest_pause() -> None:
    # The fleet retries a dead node forever: the pause stays at the cap, never grows out of range.
    backoff = ReconnectBackoff(0.25, 10.0)
    for _ in range(100_000):
        pause = backoff.failed()
    assert pause == 10.0

"""A session's status: the word every result's ``details.status`` carries, and how a session stands.

A ``StrEnum``, so a status is the plain string on the wire, in the journal and in an agent's text; one read
back from JSON is a plain ``str`` and compares equal to its member. Only ``enum`` is imported:
``openclaw-tui call`` reads its result's status through this module on its way to exit, and starts fast.
"""

from enum import StrEnum


class Status(StrEnum):
    """How a session (or a call about one) stands. A new status is one member more here; what derives it
    (``ExitRecord.status``) and what shows it (the dashboard's styles) name it where it applies."""

    RUNNING = "running"
    COMPLETED = "completed"
    FAILED = "failed"

"""The session part of the screen: the list of sessions, the selected session's view, and their actions."""

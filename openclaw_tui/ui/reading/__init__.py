"""Reading a session's output: scrolling back through its history, searching it, selecting it with the mouse.

(Design notes: see the end of this docstring once written.)
"""

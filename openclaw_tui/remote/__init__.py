"""One host, many frontends: the core behind a Unix socket, and the clients that reach it.

The wire format is JSON-RPC 2.0, one JSON object per line (see ``protocol.py`` for the methods).
"""

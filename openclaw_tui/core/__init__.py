"""The engine: sessions, the exec/process tools and their guarantees, on asyncio with no UI imports."""

"""Units of work for the adapters: one transaction per CLI step, web request or background read.

The store implements them (:mod:`viva.store.db`); the CLI and the web take them from here, so
they call the core for everything after start-up (where the engine is built and migrated).
"""

from viva.store.db import open_session, session_scope

__all__ = ["open_session", "session_scope"]

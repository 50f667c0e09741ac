"""The web app: server-rendered pages (Jinja2 + htmx) and a JSON API over the same core.

Build it with :func:`create_app`; nothing connects, reads files or the environment at
import time.
"""

from viva.web.app import create_app

__all__ = ["create_app"]

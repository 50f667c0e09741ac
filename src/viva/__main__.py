"""``python -m viva``: the same CLI as the ``viva`` command."""

from viva.cli import app

app()

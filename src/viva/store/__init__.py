"""Storage: SQLAlchemy 2 models, Alembic migrations, and repositories that never commit.

Start-up::

    engine = make_engine(settings.resolved_database_url)
    migrate(engine)
    with session_scope(engine) as session:
        ...  # call viva.practice with this session; the block commits once at the end

SQLite (a file in the data folder, WAL mode) by default; any SQLAlchemy URL otherwise,
PostgreSQL through ``postgresql+psycopg://``.
"""

from viva.store.db import data_location, make_engine, migrate, session_factory, session_scope
from viva.store.models import ApiToken, Attempt, Base, Recording, ReviewState, User
from viva.store.users import get_or_create_user, get_user, user_by_id

__all__ = [
    "ApiToken",
    "Attempt",
    "Base",
    "Recording",
    "ReviewState",
    "User",
    "data_location",
    "get_or_create_user",
    "get_user",
    "make_engine",
    "migrate",
    "session_factory",
    "session_scope",
    "user_by_id",
]

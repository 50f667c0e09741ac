"""Alembic owns the schema: migrations apply, are idempotent, and agree with the models."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, inspect

from viva.store import Base, make_engine, migrate
from viva.store.db import alembic_config

FIRST_TABLES = {"users", "api_tokens", "attempts", "review_states", "recordings"}


def _head(engine: Engine) -> str | None:
    return ScriptDirectory.from_config(alembic_config(engine)).get_current_head()


def test_models_and_migrations_agree(engine: Engine) -> None:
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        diff = compare_metadata(context, Base.metadata)
    assert diff == [], f"models and migrations disagree; write a migration for: {diff}"


def test_the_first_migration_creates_every_core_table(engine: Engine) -> None:
    assert set(inspect(engine).get_table_names()) >= FIRST_TABLES
    assert set(Base.metadata.tables) <= set(inspect(engine).get_table_names())


def test_migrate_is_idempotent(engine: Engine) -> None:
    migrate(engine)
    with engine.connect() as connection:
        assert MigrationContext.configure(connection).get_current_revision() == _head(engine)


def test_downgrade_to_nothing_and_back(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'round.sqlite3'}")
    migrate(engine)
    with engine.begin() as connection:
        config = alembic_config(engine)
        config.attributes["connection"] = connection
        command.downgrade(config, "base")
    assert set(inspect(engine).get_table_names()) == {"alembic_version"}
    migrate(engine)
    assert set(inspect(engine).get_table_names()) == {*Base.metadata.tables, "alembic_version"}
    engine.dispose()

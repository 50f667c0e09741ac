from __future__ import annotations

from pathlib import Path

from viva.settings import Settings, settings_markdown

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_lists_every_setting_as_declared() -> None:
    text = README.read_text(encoding="utf-8")
    block = text.split("<!-- settings:start -->\n")[1].split("\n<!-- settings:end -->")[0]
    assert block == settings_markdown(), "regenerate with: python -m viva.settings"


def test_environment_overrides_defaults_and_options_override_environment(tmp_path: Path) -> None:
    env = {"VIVA_DATABASE_URL": "sqlite:///x.db", "VIVA_DATA_DIR": str(tmp_path), "VIVA_USER": ""}
    settings = Settings.from_env(env)
    assert settings.database_url == "sqlite:///x.db"
    assert settings.data_dir == tmp_path
    assert settings.user == "me"  # an empty variable means "not set"
    assert Settings.from_env(env, database_url="sqlite:///y.db").database_url == "sqlite:///y.db"


def test_default_database_is_sqlite_in_the_data_folder(tmp_path: Path) -> None:
    settings = Settings.from_env({"VIVA_DATA_DIR": str(tmp_path)})
    assert settings.resolved_database_url == f"sqlite:///{tmp_path / 'viva.sqlite3'}"

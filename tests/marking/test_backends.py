import pytest

from viva.errors import NotFound
from viva.marking import get_backend


def test_default_backend_is_built_once() -> None:
    assert get_backend("default") is get_backend("default")


def test_unknown_backend_is_a_user_error() -> None:
    with pytest.raises(NotFound):
        get_backend("nope")

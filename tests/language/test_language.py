"""The one language module: stems are the same from any thread, and the word lists agree."""

from __future__ import annotations

import threading

from viva import language
from viva.marking import text
from viva.speech import delivery

WORDS = [
    f"{base}{suffix}"
    for base in ("normal", "regular", "optim", "generat", "quantis", "attent", "embedd", "transform")
    for suffix in ("ise", "ised", "ising", "isation", "ization", "ations", "ively", "ness", "ings", "s")
]


def test_stems_from_eight_threads_match_one_thread() -> None:
    expected = language.stem_words(WORDS)
    errors: list[BaseException] = []
    wrong: list[list[str]] = []
    start = threading.Barrier(8)

    def hammer() -> None:
        try:
            start.wait()
            for _ in range(300):
                got = language.stem_words(WORDS)
                if got != expected:
                    wrong.append(got)
        except BaseException as error:  # the shared stemmer raised IndexError here
            errors.append(error)

    threads = [threading.Thread(target=hammer) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert wrong == []


def test_each_thread_has_its_own_stemmer() -> None:
    seen: list[object] = []
    thread = threading.Thread(target=lambda: seen.append(language.stemmer()))
    thread.start()
    thread.join()
    assert seen[0] is not language.stemmer()


def test_marker_and_delivery_share_one_filler_list() -> None:
    assert text.FILLERS is language.FILLERS
    for word in language.FILLERS:
        assert word in delivery.FILLERS
    for pair in language.FILLER_PHRASES:
        assert " ".join(pair) in delivery.FILLERS

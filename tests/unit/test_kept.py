"""What a process keeps stays within its bound, drops the least recently used first, and is
shared safely by a worker's threads."""

from __future__ import annotations

import threading

from app.kept import Kept
from app.web import share_views


def test_the_least_recently_used_goes_first() -> None:
    kept: Kept[str, int] = Kept(3)
    for n, key in enumerate("abc"):
        kept.put(key, n)
    assert kept.get("a") == 0  # "a" is now the most recent
    kept.put("d", 3)
    assert [kept.get(key) for key in "abcd"] == [0, None, 2, 3]
    assert len(kept) == 3


def test_weights_bound_the_whole_and_a_value_heavier_than_it_is_not_kept() -> None:
    kept: Kept[str, bytes] = Kept(10, weigh=len)
    kept.put("four", b"1234")
    kept.put("five", b"12345")
    kept.put("three", b"123")  # 12 in all: the oldest goes
    assert (kept.get("four"), kept.weight) == (None, 8)
    kept.put("huge", b"x" * 11)
    assert kept.get("huge") is None and kept.get("five") == b"12345"


def test_threads_share_it_within_its_bound() -> None:
    kept: Kept[int, int] = Kept(50)
    wrong: list[tuple[int, int | None]] = []

    def work(offset: int) -> None:
        for n in range(2000):
            key = (n * 7 + offset) % 120
            kept.put(key, key * 2)
            found = kept.get((key + 3) % 120)
            if found is not None and found != ((key + 3) % 120) * 2:
                wrong.append((key, found))

    threads = [threading.Thread(target=work, args=(t,)) for t in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert wrong == [] and len(kept) == 50


def test_drawn_share_views_are_kept_within_their_bytes() -> None:
    share_views.clear()
    try:
        page = share_views.Drawn(b"x" * (share_views.MAX_BYTES // 10), {"Vary": "Cookie"})
        for n in range(25):
            share_views.put((f"r{n}", 1, "en", "http://testserver/"), page)
        assert share_views._pages.weight <= share_views.MAX_BYTES
        assert share_views.get(("r24", 1, "en", "http://testserver/")) is page
        assert share_views.get(("r0", 1, "en", "http://testserver/")) is None
        too_big = share_views.Drawn(b"x" * (share_views.MAX_BYTES // 4), {})
        share_views.put(("big", 1, "en", "http://testserver/"), too_big)
        assert share_views.get(("big", 1, "en", "http://testserver/")) is None
    finally:
        share_views.clear()

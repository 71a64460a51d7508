"""Things worked out once and kept in a process's memory, within a bound.

A keeper is cachetools' least-recently-used cache behind a lock (a worker's threads share it):
parsed documents (`app.stored_documents`), the latest version of edited rosters
(`app.services.latest`), drawn share views (`app.web.share_views`) and drawn option lists
(`app.web.templating`). What is kept is only ever a copy of something that can be worked out
again, so dropping any of it changes no answer, only its cost.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

from cachetools import LRUCache

K = TypeVar("K")
V = TypeVar("V")


class Kept(Generic[K, V]):
    """At most `limit` in all, each value weighing `weigh(value)` (1 if not given); the least
    recently used dropped first. A value heavier than the whole limit is not kept."""

    def __init__(self, limit: int, weigh: Callable[[V], int] | None = None) -> None:
        self._cache: LRUCache[K, V] = LRUCache(limit, getsizeof=weigh)
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            return self._cache.get(key)

    def put(self, key: K, value: V) -> None:
        # cachetools refuses (ValueError) a value heavier than the whole limit: not kept.
        with self._lock, contextlib.suppress(ValueError):
            self._cache[key] = value

    def clear(self) -> None:
        with self._lock:
            self._cache.clear()

    @property
    def weight(self) -> float:
        return self._cache.currsize

    def __len__(self) -> int:
        return len(self._cache)

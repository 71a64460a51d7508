"""The last things made, by what they were made from: the one in-process cache of the app.

Only what a key fully decides goes in, such as a stored version's evaluation or its part of a
page (a version never changes), so nothing kept can be stale, on one server or several.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

T = TypeVar("T")


class Recent(Generic[T]):
    """The last `size` values made, by key; the least recently used goes first."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._kept: OrderedDict[Hashable, T] = OrderedDict()
        self._lock = threading.Lock()  # requests run in the server's worker threads

    def get(self, key: Hashable, make: Callable[[], T]) -> T:
        with self._lock:
            if key in self._kept:
                self._kept.move_to_end(key)
                return self._kept[key]
        made = make()  # outside the lock: two threads may make it at once, both alike
        with self._lock:
            self._kept[key] = made
            if len(self._kept) > self.size:
                self._kept.popitem(last=False)
        return made

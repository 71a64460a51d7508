"""Process memory: keep a long-running server's resident memory flat.

glibc gives threads their own malloc arenas (up to eight per core). Memory freed in one arena
cannot serve an allocation in another, so a server whose requests run on a pool of threads
slowly holds more than it uses. Capping the arenas (as MALLOC_ARENA_MAX does, but from inside,
so that every way of starting the server gets it) trades a little lock contention in malloc,
which the GIL mostly serialises anyway, for memory that stays flat.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging

log = logging.getLogger("muster.memory")
M_ARENA_MAX = -8  # glibc's mallopt parameter number for the arena cap


def limit_malloc_arenas(arenas: int) -> bool:
    """Cap glibc's malloc arenas for this process; False where there is no glibc (or 0)."""
    if arenas <= 0:
        return False
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name) if name else ctypes.CDLL(None)
        mallopt = libc.mallopt
    except (OSError, AttributeError):  # musl, macOS: no mallopt, nothing to do
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    done = bool(mallopt(M_ARENA_MAX, arenas))
    if not done:
        log.warning("could not cap malloc arenas at %d", arenas)
    return done

"""A unit on its base: ranks, the front rank, rank bonuses, and how losses thin the ranks.

Warriors fill the ranks in the order of the unit's lines, `files` to a rank: the first line
stands in front. So a rank's make-up, and with it the pike and spear bonus, follows from the
line order alone.

Losses (killed or out of formation) are taken as the source text says: "always from the
longest rank, starting with the first" — first warrior from the first rank, second from the
second, third from the first again when the unit has two equal ranks. A rank that has lost a
warrior is no longer full. Within the front rank the owner chooses whom to take; the builder
takes warriors of the last line standing in it first, so the first line keeps its place.
"""

from __future__ import annotations

import bisect
import heapq
from dataclasses import dataclass
from itertools import accumulate

from app.systems.formation_density.catalogue import WEAPONS
from app.systems.formation_density.roster import Line, Unit

# Weapons whose full ranks behind the first add hits: pikes 2 each, spears 1 each.
POLE_WEAPONS = frozenset({"pike", "spear"})


def ranks(warriors: int, files: int) -> int:
    return -(-warriors // files)


def full_ranks(warriors: int, files: int) -> int:
    return warriors // files


@dataclass(frozen=True, slots=True)
class Standing:
    """Who still stands in the front rank (count per line, in line order) and the rank bonus."""

    front: tuple[int, ...]
    extra_hits: int

    @property
    def strikers(self) -> int:
        return sum(self.front)


class Ranks:
    """The rank make-up of one unit, worked out once from its lines (O(lines), not O(ranks))."""

    def __init__(self, lines: list[Line] | tuple[Line, ...], files: int) -> None:
        self.lines = tuple(lines)
        self.files = files
        counts = [line.count for line in self.lines]
        self.ends = list(accumulate(counts))
        self.starts = [end - n for end, n in zip(self.ends, counts, strict=True)]
        self.warriors = self.ends[-1] if self.ends else 0
        pole = [line.weapon in POLE_WEAPONS for line in self.lines]
        pike = [line.weapon == "pike" for line in self.lines]
        self._pole_end = self._run_ends(pole)
        self._pike_end = self._run_ends(pike)
        self._runs = self._runs_of(pole) + self._runs_of(pike)

    def _run_ends(self, marks: list[bool]) -> list[int]:
        """For each line, where the unbroken run of marked lines it belongs to ends (or -1)."""
        out = [-1] * len(marks)
        end = -1
        for j in range(len(marks) - 1, -1, -1):
            if not marks[j]:
                end = -1
                continue
            if end == -1:
                end = self.ends[j]
            out[j] = end
        return out

    def _runs_of(self, marks: list[bool]) -> list[tuple[int, int]]:
        runs: list[tuple[int, int]] = []
        for j, marked in enumerate(marks):
            if not marked:
                continue
            if runs and runs[-1][1] == self.starts[j]:
                runs[-1] = (runs[-1][0], self.ends[j])
            else:
                runs.append((self.starts[j], self.ends[j]))
        return runs

    @property
    def ranks(self) -> int:
        return ranks(self.warriors, self.files)

    @property
    def full_ranks(self) -> int:
        return full_ranks(self.warriors, self.files)

    def front(self) -> tuple[int, ...]:
        """Warriors of each line standing in the front rank."""
        room = min(self.files, self.warriors)
        out = []
        for start, end in zip(self.starts, self.ends, strict=True):
            out.append(max(0, min(end, room) - start))
        return tuple(out)

    def extra_hits(self) -> int:
        """Hits the full ranks behind the first add: 2 for a rank all of pikes, 1 for a rank all
        of pikes and spears. Each run of such lines counts the full ranks lying wholly in it."""
        f = self.files
        total = 0
        for start, end in self._runs:
            first = max(1, -(-start // f))
            total += max(0, end // f - first)
        return total

    def rank_bonus(self, rank: int) -> int:
        """What one full rank behind the first adds (0 for the first rank or a partial one)."""
        f = self.files
        start, end = rank * f, (rank + 1) * f
        if rank < 1 or end > self.warriors:
            return 0
        j = bisect.bisect_right(self.ends, start)
        if self._pole_end[j] < end:
            return 0
        return 2 if self._pike_end[j] >= end else 1

    def standings(self, most_losses: int) -> list[Standing]:
        """The standing after 0, 1, … `most_losses` losses (capped at the whole unit)."""
        most = min(most_losses, self.warriors)
        f = self.files
        full = self.full_ranks
        partial = self.warriors - full * f
        front_len = min(f, self.warriors)
        bonus = self.extra_hits()
        front_lost = 0
        out = [self._standing(front_len, 0, bonus)]
        heap: list[tuple[int, int]] = []
        for k in range(1, most + 1):
            if k <= full:
                # While untouched full ranks remain they are the longest; the frontmost goes.
                rank = k - 1
                if k == full:
                    heap = [(-(f - 1), i) for i in range(full) if f > 1]
                    if partial:
                        heap.append((-partial, full))
                    heapq.heapify(heap)
                bonus -= self.rank_bonus(rank)
            else:
                if not heap:  # a lone partial rank
                    heap = [(-partial, 0)]
                length, rank = heapq.heappop(heap)
                if -length > 1:
                    heapq.heappush(heap, (length + 1, rank))
            if rank == 0:
                front_lost += 1
            out.append(self._standing(front_len, front_lost, bonus))
        return out

    def _standing(self, front_len: int, front_lost: int, bonus: int) -> Standing:
        # The front rank loses warriors of its last line first.
        room = front_len - front_lost
        front = tuple(max(0, min(end, room) - start)
                      for start, end in zip(self.starts, self.ends, strict=True))
        return Standing(front, bonus)


def unit_ranks(unit: Unit) -> Ranks:
    return Ranks(unit.lines, unit.files)


def weapon_features(line: Line) -> tuple[str, ...]:
    return WEAPONS[line.weapon].features

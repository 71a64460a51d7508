"""The tournament scorer's page (Chainmail, Table 24): `/calc/tournament`. Teams, knights and
jousts live in the page's address (a GET form), so a tournament is linked and printed without
being stored; htmx swaps the form and the score together, since a pass entered opens the next."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.domain.base import Lang
from app.domain.calculator import Asked, Page, Query
from app.domain.translations import ptr, tr
from app.systems.chainmail import tournament as tm


class Refused(ValueError):
    """A joust the page cannot score; the message names it."""


MAX_TEAMS, MAX_KNIGHTS, MAX_JOUSTS, NAME_LENGTH = 4, 16, 24, 40


@dataclass
class Entry:
    """What the form holds, read as far as it could be, to be shown again."""

    teams: list[str]
    knights: list[tuple[str, int]]  # (name, team) by slot; an empty name is no knight
    jousts: list[tuple[str, str, list[tuple[str, str]]]]  # raw knight values, passes


def _name(params: Query, key: str) -> str:
    return " ".join(params.get(key, "").split())[:NAME_LENGTH]


def _index(raw: str, most: int) -> int | None:
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 10 and int(raw) < most \
        else None


def _read(params: Query) -> Entry:
    teams = [_name(params, f"t{i}") for i in range(MAX_TEAMS)]
    knights = [(_name(params, f"k{i}"), _index(params.get(f"k{i}t", "0"), MAX_TEAMS) or 0)
               for i in range(MAX_KNIGHTS)]
    jousts = []
    for j in range(MAX_JOUSTS):
        passes = [(params.get(f"j{j}p{p}a", ""), params.get(f"j{j}p{p}b", ""))
                  for p in range(1, tm.MAX_PASSES + 2)]
        while passes and passes[-1] == ("", ""):
            passes.pop()
        jousts.append((params.get(f"j{j}a", ""), params.get(f"j{j}b", ""),
                       [(a or "none", b or "none") for a, b in passes]))
    return Entry(teams, knights, jousts)


def _where(joust: int, pass_: int | None, lang: Lang) -> str:
    if pass_ is None:
        return tr(lang, "Joust %(n)s", n=joust)
    return tr(lang, "Joust %(n)s, pass %(p)s", n=joust, p=pass_)


def _problem(kind: str, lang: Lang) -> str:
    # Literal calls, so that the messages are extracted for translation.
    return {
        "same_knight": lambda: tr(lang, "a knight cannot joust against himself"),
        "unknown_result": lambda: tr(lang, "not one of the results"),
        "too_many_passes": lambda: tr(lang, "a joust has at most three passes"),
        "after_unhorsing": lambda: tr(lang, "the joust ended at an unhorsing"),
    }[kind]()


def _jousts(entry: Entry, knights: list[int], lang: Lang) -> list[tm.Joust]:
    out = []
    for j, (a, b, passes) in enumerate(entry.jousts, 1):
        if not a and not b and not passes:
            continue
        ia, ib = _index(a, MAX_KNIGHTS), _index(b, MAX_KNIGHTS)
        if ia not in knights or ib not in knights:
            raise Refused(f"{_where(j, None, lang)}: " + tr(lang, "pick two knights"))
        joust = tm.Joust(knights.index(ia), knights.index(ib), tuple(passes))  # type: ignore[arg-type]
        try:
            tm.check(joust, j)
        except tm.JoustError as bad:
            raise Refused(f"{_where(bad.joust, bad.pass_, lang)}: "
                          + _problem(bad.kind, lang)) from None
        out.append(joust)
    return out


def _result_names(lang: Lang) -> dict[str, str]:
    return {k: ptr(lang, "tournament", text) for k, text in tm.NAMES.items()}


def _scored(entry: Entry, lang: Lang) -> dict[str, Any]:
    slots = [i for i, (name, _) in enumerate(entry.knights) if name]
    jousts = _jousts(entry, slots, lang)
    team_count = max([i + 1 for i, t in enumerate(entry.teams) if t] + [2]
                     + [entry.knights[s][1] + 1 for s in slots])
    teams = [entry.teams[i] or tr(lang, "Team %(n)s", n=i + 1)
             for i in range(team_count)]
    knight_teams = [entry.knights[s][1] for s in slots]
    score = tm.score(team_count, knight_teams, jousts)
    names = [entry.knights[s][0] for s in slots]
    results = _result_names(lang)
    log = [{"a": names[j.a], "b": names[j.b], "over": tm.ended(j.passes),
            "passes": [(results[ra], results[rb], pa, pb)
                       for (ra, rb), (pa, pb) in zip(j.passes, points, strict=True)],
            "total": (sum(p[0] for p in points), sum(p[1] for p in points))}
           for j, points in zip(jousts, score.jousts, strict=True)]
    return {"teams": [(name, score.teams[i]) for i, name in enumerate(teams)],
            "knights": [(names[k], teams[knight_teams[k]], score.knights[k])
                        for k in range(len(slots))], "log": log}


def _form(entry: Entry) -> dict[str, Any]:
    """The slots the form shows: those filled, and one or two empty to fill next."""
    filled_k = max([i + 1 for i, (n, _) in enumerate(entry.knights) if n] + [0])
    filled_j = max([i + 1 for i, (a, b, p) in enumerate(entry.jousts) if a or b or p] + [0])
    filled_t = max([i + 1 for i, t in enumerate(entry.teams) if t] + [2])
    jousts = []
    for a, b, passes in entry.jousts[:min(MAX_JOUSTS, filled_j + 1)]:
        over = tm.ended(tuple(passes))
        shown = passes + ([("", "")] if not over and len(passes) < tm.MAX_PASSES else [])
        jousts.append({"a": a, "b": b, "passes": shown})
    return {"teams": entry.teams[:min(MAX_TEAMS, filled_t + 1)],
            "knights": entry.knights[:min(MAX_KNIGHTS, max(filled_k + 2, 4))],
            "jousts": jousts}


def tournament_page(asked: Asked) -> Page:
    lang, entry = asked.lang, _read(asked.query)
    error: str | None = None
    result: dict[str, Any] | None = None
    try:
        result = _scored(entry, lang)
    except Refused as refused:
        error = str(refused)
    names = _result_names(lang)
    context = {"error": error, "result": result, "form": _form(entry), "results": names,
               "table": [(names[k], att, dfn) for k, (att, dfn) in tm.RESULTS.items()
                         if k != "none"], "max_length": NAME_LENGTH}
    return Page(context, ("page",), error)

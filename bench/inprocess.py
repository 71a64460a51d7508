"""In-process figures of docs/speed.md: each route's CPU time a request, Muster's beside its floor,
the textbook app of bench/textbook.py, on the same SQLite file.

Run: `python bench/inprocess.py [--passes 15] [--requests 100] [--inline] [--profile ROUTE]`

No server and no network: each app is called through ASGI (a scope, a `receive` and a `send`)
after its lifespan has run, and the rosters are made through Muster's own API the same way.
A pass times --requests requests of each route in CPU time (`time.process_time`, so that time
the machine gives to other work is not counted), with the garbage collector paused; Muster's
route and its floor's are interleaved pass by pass, and each route's best pass is printed:

    GET  /healthz              an async constant                 floor: the same constant
    GET  /api/v1/rosters/{id}  the API's read of a 20-unit roster floor: one SELECT, as stored
    GET  /r/{id}               its share view                    floor: the row as an HTML table
    POST /api/v1/price         price and judge a 20-unit roster  floor: parsed, figures summed
    POST /r/{id}/edit          htmx: change one unit of a 30-unit roster, a new version each time

--inline runs sync endpoints (and everything else sent to a worker thread) on the event loop, so
that the thread hand-over's scheduling noise does not hide a route's own cost. --profile ROUTE
profiles Muster's route with cProfile (always inline: cProfile sees only its own thread) and
prints each package's share of the time spent in its functions. --parts ROUTE times the parts
of the route's work (PARTS) around their calls, inline, and prints each one's CPU µs a request
beside the whole request's (the best of --passes passes).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import functools
import gc
import importlib
import os
import pstats
import sys
import sysconfig
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, MutableMapping
from contextlib import asynccontextmanager, contextmanager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.load import (  # noqa: E402
    EDIT_UNITS,
    FLOORED,
    FORMS,
    LABELS,
    change_form,
    positive,
    roster,
)

ROUTES = ("healthz", "read", "view", "price", "edit")
READ_UNITS = 20
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Message, Receive, Send], Awaitable[None]]


# ---- ASGI, without a server ----

@dataclass
class Answer:
    status: int = 0
    body: bytearray = field(default_factory=bytearray)


async def call(app: ASGIApp, method: str, path: str, headers: list[tuple[bytes, bytes]],
               body: bytes = b"") -> Answer:
    """One request, answered in full. The body comes in one message; a later `receive` waits
    until the answer is complete, as a client that stays connected does."""
    route, _, query = path.partition("?")
    scope = {"type": "http", "asgi": {"version": "3.0", "spec_version": "2.4"},
             "http_version": "1.1", "method": method, "scheme": "http", "path": route,
             "raw_path": route.encode(), "query_string": query.encode(), "root_path": "",
             "headers": [(b"host", b"testserver"), *headers],
             "client": ("127.0.0.1", 50000), "server": ("testserver", 80), "state": {}}
    answer, done = Answer(), asyncio.Event()
    unread = [{"type": "http.request", "body": body, "more_body": False}]

    async def receive() -> Message:
        if unread:
            return unread.pop()
        await done.wait()
        return {"type": "http.disconnect"}

    async def send(message: Message) -> None:
        if message["type"] == "http.response.start":
            answer.status = message["status"]
        elif message["type"] == "http.response.body":
            answer.body += message.get("body", b"")
            if not message.get("more_body"):
                done.set()

    await app(scope, receive, send)
    return answer


@asynccontextmanager
async def running(app: ASGIApp) -> AsyncIterator[None]:
    """The app's lifespan: started (Muster migrates and opens its engine), then shut down."""
    inbox: asyncio.Queue[Message] = asyncio.Queue()
    outbox: asyncio.Queue[Message] = asyncio.Queue()
    task = asyncio.create_task(app({"type": "lifespan", "asgi": {"version": "3.0"}, "state": {}},
                                   inbox.get, outbox.put))
    await inbox.put({"type": "lifespan.startup"})
    said = await outbox.get()
    if said["type"] != "lifespan.startup.complete":
        raise RuntimeError(f"the app did not start: {said.get('message', said)}")
    try:
        yield
    finally:
        await inbox.put({"type": "lifespan.shutdown"})
        await outbox.get()
        await task


@contextmanager
def inline() -> Iterator[None]:
    """Work sent to a worker thread (sync endpoints, run_in_threadpool) runs on the event loop."""
    import anyio.to_thread

    threaded = anyio.to_thread.run_sync

    async def run_sync(func: Callable[..., Any], *args: Any, **_: Any) -> Any:
        return func(*args)

    anyio.to_thread.run_sync = run_sync  # type: ignore[assignment]
    try:
        yield
    finally:
        anyio.to_thread.run_sync = threaded


# ---- the apps, their data and their requests ----

@contextmanager
def apps() -> Iterator[tuple[ASGIApp, ASGIApp]]:
    """Muster's app and the textbook floor, on one SQLite file of their own. Both read the
    settings' variables when made, as the servers of bench/load.py do."""
    from app.config import Settings
    from app.main import create_app
    from bench.textbook import create

    # The editor's change commits with synchronous = FULL: on a disk its flushes wait for the
    # machine's other writes, which then show in the CPU figures; /dev/shm is memory-backed.
    shm = Path("/dev/shm")
    with tempfile.TemporaryDirectory(prefix="muster-inprocess-",
                                     dir=shm if shm.is_dir() else None) as folder:
        os.environ.update(DATABASE_URL=f"sqlite:///{folder}/muster.db", MUSTER_DATA_DIR=folder,
                          MUSTER_CREATION_LIMIT="0", MUSTER_LOG_LEVEL="warning")
        yield create_app(Settings()), create()


@dataclass
class Setup:
    read_id: str  # a 20-unit roster: read, viewed
    edit_id: str  # a 30-unit roster, changed in the editor
    version: int  # the version its next change is made from
    cookie: str  # the browser that opened its edit link
    csrf: str
    price_body: bytes


async def prepare(muster: ASGIApp) -> Setup:
    """The rosters, made through Muster's API, and the editor opened by its edit link."""
    transport = httpx.ASGITransport(app=muster)  # type: ignore[arg-type]
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver",
                                 follow_redirects=True) as browser:
        (await browser.get("/")).raise_for_status()
        made = await browser.post("/api/v1/rosters", json=roster(READ_UNITS))
        read_id = made.raise_for_status().json()["id"]
        made = (await browser.post("/api/v1/rosters", json=roster(EDIT_UNITS))).json()
        opened = await browser.get(f"/r/{made['id']}/edit?key={made['edit_key']}")
        assert opened.status_code == 200, opened.text[:300]
        cookie = "; ".join(f"{k}={v}" for k, v in browser.cookies.items())
        csrf = browser.cookies["muster_csrf"]
    body = httpx.Request("POST", "/", json=roster(READ_UNITS)).read()
    return Setup(read_id, made["id"], made["version"], cookie, csrf, body)


async def ask(app: ASGIApp, setup: Setup, route: str) -> Answer:
    """One request of `route`; a change is made from the version the last one stored."""
    if route == "healthz":
        return await call(app, "GET", "/healthz", [])
    if route == "read":
        return await call(app, "GET", f"/api/v1/rosters/{setup.read_id}", [])
    if route == "view":
        return await call(app, "GET", f"/r/{setup.read_id}", [])
    if route == "price":
        return await call(app, "POST", "/api/v1/price",
                          [(b"content-type", b"application/json")], setup.price_body)
    form = f"version={setup.version}&{change_form(setup.csrf, setup.version % FORMS)}"
    answer = await call(app, "POST", f"/r/{setup.edit_id}/edit", [
        (b"cookie", setup.cookie.encode()), (b"hx-request", b"true"),
        (b"content-type", b"application/x-www-form-urlencoded")], form.encode())
    setup.version += 1
    return answer


# ---- timing ----

async def timed(app: ASGIApp, setup: Setup, route: str, requests: int) -> float:
    """CPU µs a request over `requests` of `route`, the garbage collector paused."""
    gc.collect()
    gc.disable()
    try:
        started = time.process_time()
        for _ in range(requests):
            answer = await ask(app, setup, route)
            if answer.status != 200:
                raise RuntimeError(f"{LABELS[route]}: {answer.status} "
                                   f"{bytes(answer.body[:300]).decode(errors='replace')}")
        return (time.process_time() - started) / requests * 1e6
    finally:
        gc.enable()


async def measure(muster: ASGIApp, floor: ASGIApp, setup: Setup,
                  args: argparse.Namespace) -> dict[tuple[str, str], float]:
    """The best pass of each (route, "muster" | "floor"); a first pass, not counted, warms up
    (templates compiled, caches filled)."""
    best: dict[tuple[str, str], float] = {}
    for n in range(args.passes + 1):
        for route in ROUTES:
            variants = [("muster", muster)] + ([("floor", floor)] if route in FLOORED else [])
            if n % 2:
                variants.reverse()  # neither goes first every time
            for name, app in variants:
                took = await timed(app, setup, route, args.requests)
                if n:
                    best[route, name] = min(best.get((route, name), took), took)
    return best


def report(best: dict[tuple[str, str], float], args: argparse.Namespace) -> None:
    print(f"In-process, CPU µs a request, best of {args.passes} passes of {args.requests} "
          f"requests{', inline' if args.inline else ''}; Muster | textbook floor")
    for route in ROUTES:
        line = f"    {LABELS[route]:<26} {best[route, 'muster']:8.0f} µs"
        if route in FLOORED:
            ratio = best[route, "floor"] / best[route, "muster"]
            line += f" | {best[route, 'floor']:8.0f} µs | {ratio:4.2f}× floor"
        print(line)
    print(f"    editor change ({EDIT_UNITS} units) against the API's read: "
          f"{best['edit', 'muster'] / best['read', 'muster']:.1f}×")


# ---- parts ----

# The parts of each route's work timed by --parts: "module:name" of a function the route's
# code calls through its module (so that it can be wrapped there), and what it stands for.
PARTS = {
    "read": {"app.services.rosters:get_roster": "the row read, its document validated",
             "app.services.stored_rosters:read_stored": "  of which the validation",
             "fastapi.routing:solve_dependencies": "FastAPI's dependencies and parameters",
             "fastapi.routing:serialize_response": "the answer validated and written as JSON"},
    "price": {"fastapi.routing:solve_dependencies": "the body read and validated, parameters",
              "app.systems.chainmail:price": "pricing",
              "app.systems.chainmail:assess": "judging every rule",
              "fastapi.routing:serialize_response": "the answer validated and written as JSON"},
    "view": {"app.services.rosters:get_roster": "the row read, its document validated",
             "app.web.share:page": "the page drawn"},
}


def timing(spent: Counter[str], name: str) -> None:
    """Wrap the function `name` ("module:attribute") so that its CPU time adds to spent[name]."""
    module_name, attribute = name.split(":")
    module = importlib.import_module(module_name)
    function = getattr(module, attribute)

    @functools.wraps(function)
    def timed_call(*args: Any, **kwargs: Any) -> Any:
        started = time.process_time()
        try:
            return function(*args, **kwargs)
        finally:
            spent[name] += time.process_time() - started

    @functools.wraps(function)
    async def timed_await(*args: Any, **kwargs: Any) -> Any:
        started = time.process_time()
        try:
            return await function(*args, **kwargs)
        finally:
            spent[name] += time.process_time() - started

    setattr(module, attribute, timed_await if asyncio.iscoroutinefunction(function)
            else timed_call)


async def parts(muster: ASGIApp, setup: Setup, route: str, args: argparse.Namespace) -> None:
    spent: Counter[str] = Counter()
    for name in PARTS[route]:
        timing(spent, name)
    best: tuple[float, Counter[str]] | None = None
    with inline():
        for n in range(args.passes + 1):
            spent.clear()
            took = await timed(muster, setup, route, args.requests)
            if n and (best is None or took < best[0]):
                best = (took, Counter({k: v / args.requests * 1e6 for k, v in spent.items()}))
    assert best is not None
    if missed := [name for name in PARTS[route] if not spent[name]]:
        # Renamed, or no longer called through its module: its figure would read 0 µs.
        raise SystemExit(f"not called by {LABELS[route]}: {', '.join(missed)}")
    print(f"\nParts of Muster's {LABELS[route]}, CPU µs a request (inline, the best of "
          f"{args.passes} passes): {best[0]:.0f} in all")
    for name, meaning in PARTS[route].items():
        print(f"    {best[1][name]:7.0f} µs  {meaning} ({name})")


# ---- profile ----

def package(filename: str) -> str:
    """The top-level package (or standard module) a profiled function's file belongs to."""
    if filename.startswith(("~", "<")):
        return "(built-in)"
    path = Path(filename).resolve()
    paths = sysconfig.get_paths()
    roots = [paths["purelib"], paths["platlib"], ROOT, paths["stdlib"], paths["platstdlib"]]
    for root in roots:
        try:
            part = path.relative_to(Path(root).resolve()).parts[0]
        except ValueError:
            continue
        # A Jinja template's compiled code is named by the template's file.
        return "templates" if root == ROOT and path.suffix != ".py" else part.removesuffix(".py")
    return "(other)"


async def profile(muster: ASGIApp, setup: Setup, route: str, requests: int) -> None:
    await ask(muster, setup, route)  # not counted: templates compiled, caches filled
    profiler = cProfile.Profile()
    with inline():
        profiler.enable()
        for _ in range(requests):
            await ask(muster, setup, route)
        profiler.disable()
    own: Counter[str] = Counter()
    stats = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    for (filename, _, _), (_, _, own_time, _, _) in stats.items():
        own[package(filename)] += own_time
    total = sum(own.values()) or 1.0
    print(f"\ncProfile of Muster's {LABELS[route]}, {requests} requests (inline): "
          f"{total / requests * 1e6:.0f} µs a request under the profiler; each package's share")
    shown = [(name, seconds) for name, seconds in own.most_common() if seconds / total >= 0.005]
    for name, seconds in shown:
        print(f"    {name:<24} {seconds / total:6.1%}")
    rest = total - sum(seconds for _, seconds in shown)
    print(f"    {'the rest, each < 0.5 %':<24} {rest / total:6.1%}")


async def run(args: argparse.Namespace) -> None:
    with apps() as (muster, floor):
        async with running(muster), running(floor):
            setup = await prepare(muster)
            with inline() if args.inline else nullcontext():
                report(await measure(muster, floor, setup, args), args)
            if args.profile:
                await profile(muster, setup, args.profile, args.requests * args.passes)
            if args.parts:
                await parts(muster, setup, args.parts, args)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--passes", type=positive(int), default=15)
    parser.add_argument("--requests", type=positive(int), default=100, help="of a pass")
    parser.add_argument("--inline", action="store_true",
                        help="run sync endpoints on the event loop")
    parser.add_argument("--profile", choices=ROUTES, help="cProfile of this Muster route")
    parser.add_argument("--parts", choices=sorted(PARTS), help="time this route's parts")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()

"""The `muster` command: serve, migrate, backup."""

from __future__ import annotations

import argparse
import sys

from app.config import get_settings


def serve(args: argparse.Namespace) -> int:
    import uvicorn

    settings = get_settings()
    uvicorn.run("app.asgi:app", host=args.host or settings.host, port=args.port or settings.port,
                workers=args.workers, proxy_headers=True, log_level=args.log_level)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="muster", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    p = commands.add_parser("serve", help="start the web server")
    p.add_argument("--host", default=None)
    p.add_argument("--port", type=int, default=None)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--log-level", default="info")
    p.set_defaults(func=serve)
    args = parser.parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())

# Muster: one stateless web process (more with MUSTER_WORKERS); SQLite on a volume by default,
# PostgreSQL with DATABASE_URL=postgresql+psycopg://user:password@host/db (see compose.yaml).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    MUSTER_DATA_DIR=/data

RUN groupadd --system muster && useradd --system --gid muster --home-dir /app muster \
    && mkdir -p /data && chown muster:muster /data

WORKDIR /app
COPY pyproject.toml README.md ./
COPY app ./app
COPY templates ./templates
COPY static ./static
COPY migrations ./migrations
COPY alembic.ini ./
COPY scripts ./scripts
# The same install step CI runs (scripts/install.sh); no test or development tools.
RUN sh scripts/install.sh

USER muster
VOLUME ["/data"]
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=3s --start-period=20s --retries=3 \
  CMD python -c "import urllib.request, sys; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2).status == 200 else 1)"
CMD ["sh", "scripts/start.sh"]

# Muster: stateless web processes (MUSTER_WORKERS of them); SQLite on the /data volume by default,
# PostgreSQL with DATABASE_URL=postgresql+psycopg://user:password@host/db (see compose.yaml).
#   docker build -t muster . && docker run -p 8000:8000 -v muster-data:/data muster
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    MUSTER_DATA_DIR=/data

RUN groupadd --system muster && useradd --system --gid muster --home-dir /app muster \
    && mkdir -p /data && chown muster:muster /data

WORKDIR /app
# Everything the app reads at run time: the package (with its compiled translations in
# app/locale), templates, static files and migrations. The install and start steps are the
# scripts the test suite runs on a fresh virtual environment.
COPY pyproject.toml README.md alembic.ini ./
COPY app ./app
COPY templates ./templates
COPY static ./static
COPY migrations ./migrations
COPY scripts ./scripts
RUN sh scripts/install.sh

USER muster
VOLUME ["/data"]
EXPOSE 8000
# Liveness only: a database outage must not get healthy servers restarted (/readyz tells it).
HEALTHCHECK --interval=30s --timeout=3s --start-period=20s --retries=3 \
  CMD python -c "import os, sys, urllib.request; port = os.environ.get('MUSTER_PORT', '8000'); sys.exit(0 if urllib.request.urlopen(f'http://127.0.0.1:{port}/healthz', timeout=2).status == 200 else 1)"
CMD ["sh", "scripts/start.sh"]

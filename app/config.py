"""Settings, read once from the environment (prefix MUSTER_, plus DATABASE_URL)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pydantic import AliasChoices, Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="MUSTER_", env_file=".env", extra="ignore")

    data_dir: Path = Path("data")
    database_url: str = Field(
        default="",
        validation_alias=AliasChoices("DATABASE_URL", "MUSTER_DATABASE_URL"),
        description="SQLAlchemy URL; empty means a SQLite file in data_dir.",
    )
    max_body_bytes: int = 1024 * 1024
    secure_cookies: bool = False
    host: str = "127.0.0.1"
    port: int = 8000

    @property
    def db_url(self) -> str:
        if self.database_url:
            return self.database_url
        return f"sqlite:///{self.data_dir / 'muster.db'}"


@lru_cache
def get_settings() -> Settings:
    return Settings()

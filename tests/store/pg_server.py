"""A real, throw-away PostgreSQL server for the tests and the store benchmark.

The Debian package's binaries (``/usr/lib/postgresql/<n>/bin``, else ``PATH``) run a
cluster whose data directory and unix socket sit in a private temporary directory, on
a free port. PostgreSQL refuses to run as root, so as root the cluster belongs to the
``postgres`` system user (created when missing). Anything that keeps the server from
starting raises :class:`PostgresUnavailable` with the reason: the tests that need it
fail with that reason rather than skip.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from pathlib import Path

import psycopg

__all__ = ["PostgresServer", "PostgresUnavailable"]

#: Durability off: a test cluster is thrown away, and fsync per commit only slows it.
_TEST_SETTINGS = ("fsync=off", "synchronous_commit=off", "full_page_writes=off")


class PostgresUnavailable(RuntimeError):
    """The server could not be started; the message says why and what to install."""


def _bin_dir() -> Path:
    for base in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):
        if (base / "initdb").exists():
            return base
    found = shutil.which("initdb")
    if found:
        return Path(found).resolve().parent
    raise PostgresUnavailable(
        "PostgreSQL is not installed (no initdb under /usr/lib/postgresql or on PATH): "
        "install the Debian package `postgresql` (scripts/test does so in CI)"
    )


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _server_user() -> str | None:
    """The unprivileged user to run as, or None to run as ourselves (not root)."""
    if os.geteuid() != 0:
        return None
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        subprocess.run(
            ["useradd", "--system", "--no-create-home", "--shell", "/bin/false", "postgres"],
            check=True,
            capture_output=True,
        )
    return "postgres"


class PostgresServer:
    """One cluster: ``start()`` it, hand out fresh databases with :meth:`new_database`,
    ``stop()`` it (which removes its files)."""

    def __init__(self, durable: bool = False) -> None:
        self.durable = durable
        self.bin = _bin_dir()
        self.user = _server_user()
        self.root = Path(tempfile.mkdtemp(prefix="errdex-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self.started = False

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        command = [str(self.bin / args[0]), *args[1:]]
        if self.user is not None:
            command = ["runuser", "-u", self.user, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise PostgresUnavailable(
                f"{args[0]} failed ({done.returncode}): {(done.stderr or done.stdout).strip()}"
            )
        return done

    def start(self) -> PostgresServer:
        if self.user is not None:
            shutil.chown(self.root, self.user, self.user)
        self.root.chmod(0o700)
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8")
        options = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1"
        options += " -c max_connections=200"
        if not self.durable:
            options += "".join(f" -c {setting}" for setting in _TEST_SETTINGS)
        log = self.root / "server.log"
        self._run("pg_ctl", "-D", str(self.data), "-l", str(log), "-o", options, "-w", "start")
        self.started = True
        return self

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@/{database}?host={self.root}&port={self.port}"

    def new_database(self) -> str:
        """A new empty database; its URL."""
        name = f"t_{uuid.uuid4().hex[:16]}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        if self.started:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
            self.started = False
        shutil.rmtree(self.root, ignore_errors=True)

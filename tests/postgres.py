"""A throwaway PostgreSQL cluster on loopback, for the tests (fixtures in tests/conftest.py) and bench/web.py.

Made from Debian's `postgresql` binaries (/usr/lib/postgresql/<version>/bin): `initdb` into a fresh temporary
folder, `pg_ctl start` listening on 127.0.0.1 only, at a free port, with its socket in that folder, trust
authentication (loopback only) and, unless asked otherwise, durability off (fsync, synchronous_commit,
full_page_writes: a test cluster never outlives a crash anyway). PostgreSQL refuses to run as root, so as root
the cluster belongs to the `postgres` system user the Debian package creates; otherwise to the current user.

    cluster = start()                       # Unavailable (with INSTALL in its message) if PostgreSQL is missing
    name = cluster.create_database(template="template1")
    url = cluster.url(name)                 # postgresql+psycopg://postgres@127.0.0.1:PORT/NAME
    cluster.drop_database(name)
    cluster.pause(); cluster.resume()       # stopped and started again on its port, its data kept
    cluster.stop()                          # pg_ctl stop; kills the server's process group if that fails

    pool = Pool(cluster, template=name)     # databases at head, one test at a time
    name = pool.take(); ...; pool.give_back(name)   # emptied on the way back (DELETE, one round trip)
"""
from __future__ import annotations

import glob
import itertools
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

INSTALL = "apt-get install -y postgresql"
"""The one command that makes PostgreSQL available on Debian."""
SUPERUSER = "postgres"
"""The cluster's superuser (initdb -U), whoever owns its files."""
START_ATTEMPTS = 3
START_TIMEOUT = 60
STOP_TIMEOUT = 30
SETTINGS = {
    "listen_addresses": "'127.0.0.1'",
    "max_connections": "200",
    "shared_buffers": "64MB",
    "log_min_messages": "warning",
    "log_checkpoints": "off",
    "logging_collector": "off",
}
FAST = {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"}
"""For tests: nothing is synced (a test cluster never outlives a crash). Benchmarks start with `durable=True`."""


class Unavailable(RuntimeError):
    """PostgreSQL's server binaries (or, as root, a user to run them as) are missing."""


def bindir() -> Path:
    """The newest installed /usr/lib/postgresql/<version>/bin that holds initdb, pg_ctl and postgres."""
    found = [Path(path).parent for path in glob.glob("/usr/lib/postgresql/*/bin/initdb")]
    found = [folder for folder in found if all((folder / name).exists() for name in ("initdb", "pg_ctl", "postgres"))]
    if not found:
        raise Unavailable(f"PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): run '{INSTALL}'")
    return max(found, key=lambda folder: [int(part) for part in re.findall(r"\d+", folder.parent.name)] or [0])


def _owner() -> pwd.struct_passwd | None:
    """Whom the server runs as: None for the current user, the `postgres` user when we are root."""
    if os.geteuid() != 0:
        return None
    try:
        return pwd.getpwnam("postgres")
    except KeyError:
        raise Unavailable(f"PostgreSQL refuses to run as root and there is no 'postgres' user: run '{INSTALL}'") \
            from None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class Cluster:
    folder: Path
    """Holds the data directory, the server's log and its socket; removed by `stop`."""
    port: int
    bin: Path
    owner: pwd.struct_passwd | None
    _admin: Any = field(default=None, repr=False)
    _names: Any = field(default_factory=itertools.count, repr=False)

    @property
    def data(self) -> Path:
        return self.folder / "data"

    @property
    def log(self) -> Path:
        return self.folder / "server.log"

    def url(self, database: str = "postgres", driver: str = "postgresql+psycopg") -> str:
        return f"{driver}://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    # ---- databases ----------------------------------------------------------------------------------------

    def execute(self, statement: Any) -> None:
        """Run one statement on the `postgres` database, outside a transaction (CREATE/DROP DATABASE)."""
        import psycopg

        if self._admin is None or self._admin.closed:
            self._admin = psycopg.connect(self.url(driver="postgresql"), autocommit=True, connect_timeout=10)
        self._admin.execute(statement)

    def create_database(self, name: str | None = None, *, template: str = "template1") -> str:
        """A new database copied from `template` (which nobody may be connected to); returns its name.
        `template1` is empty; a database migrated to head makes a store that opens without migrating."""
        from psycopg import sql

        name = name or f"test_{os.getpid()}_{next(self._names)}"
        self.execute(sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(sql.Identifier(name), sql.Identifier(template)))
        return name

    def drop_database(self, name: str) -> None:
        """Drop a database, ending any session still connected to it (a test's pool that was not disposed)."""
        from psycopg import sql

        self.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))

    # ---- the server ---------------------------------------------------------------------------------------

    def _run(self, *command: str, timeout: float) -> subprocess.CompletedProcess:
        """A PostgreSQL program as the cluster's owner, its output in the server log's folder."""
        env = {key: value for key, value in os.environ.items() if not key.startswith("PG")}
        env["LC_ALL"] = "C"
        owner = {} if self.owner is None else {"user": self.owner.pw_uid, "group": self.owner.pw_gid,
                                               "extra_groups": []}
        with open(self.folder / "commands.log", "ab") as output:
            return subprocess.run([str(self.bin / command[0]), *command[1:]], cwd=self.folder, env=env,
                                  stdin=subprocess.DEVNULL, stdout=output, stderr=subprocess.STDOUT,
                                  timeout=timeout, **owner)

    def _server_pid(self) -> int | None:
        try:
            return int((self.data / "postmaster.pid").read_text().split("\n", 1)[0])
        except (OSError, ValueError):
            return None

    def stop(self) -> None:
        """Stop the server (fast shutdown) and remove the folder. If pg_ctl fails or times out, kill the
        server's process group: pg_ctl starts the postmaster in a session of its own, so that is every backend."""
        if self._admin is not None:
            self._admin.close()
            self._admin = None
        pid = self._server_pid()
        try:
            stopped = self._run("pg_ctl", "stop", "-D", str(self.data), "-m", "fast", "-w", "-t",
                                str(STOP_TIMEOUT), timeout=STOP_TIMEOUT + 10).returncode == 0
        except (OSError, subprocess.TimeoutExpired):
            stopped = False
        if not stopped and pid is not None:
            try:
                os.killpg(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline and _alive(pid):
                time.sleep(0.05)
        shutil.rmtree(self.folder, ignore_errors=True)

    def pause(self) -> None:
        """Stop the server (fast shutdown: every connection cut) and keep its data, to `resume` it."""
        if self._admin is not None:
            self._admin.close()
            self._admin = None
        stopped = self._run("pg_ctl", "stop", "-D", str(self.data), "-m", "fast", "-w", "-t", str(STOP_TIMEOUT),
                            timeout=STOP_TIMEOUT + 10)
        if stopped.returncode != 0:
            raise RuntimeError(f"PostgreSQL did not stop:\n{self.tail()}")

    def resume(self) -> None:
        """Start the server again on its port after `pause`."""
        started = self._run("pg_ctl", "start", "-D", str(self.data), "-l", str(self.log), "-w", "-t",
                            str(START_TIMEOUT), "-o", f"-p {self.port}", timeout=START_TIMEOUT + 10)
        if started.returncode != 0:
            raise RuntimeError(f"PostgreSQL did not start again:\n{self.tail()}")

    def tail(self, lines: int = 20) -> str:
        """The end of the server's and the commands' logs, for error messages."""
        text = ""
        for path in (self.folder / "commands.log", self.log):
            if path.exists():
                text += "".join(path.read_text(errors="replace").splitlines(keepends=True)[-lines:])
        return text


class Pool:
    """Databases copied from `template` (a database at the schema's head), lent to one test at a time and
    emptied when given back: after ending any session a test left connected, DELETE of every row of every
    table but `alembic_version` (foreign keys not checked meanwhile: every table is emptied). That is one round
    trip of about a millisecond, where a CREATE DATABASE from the template and a DROP cost about 50 ms a test.
    A database whose emptying fails is dropped, not lent again."""

    def __init__(self, cluster: Cluster, *, template: str) -> None:
        self.cluster, self.template = cluster, template
        self._free: list[str] = []
        self._cleaners: dict[str, tuple[Any, Any]] = {}  # name -> (connection, statement)

    def take(self) -> str:
        return self._free.pop() if self._free else self.cluster.create_database(template=self.template)

    def give_back(self, name: str) -> None:
        import psycopg

        try:
            connection, statement = self._cleaners.get(name) or self._cleaner(name)
            connection.execute(statement)
        except psycopg.Error:
            self._discard(name)
        else:
            self._free.append(name)

    def _cleaner(self, name: str) -> tuple[Any, Any]:
        import psycopg
        from psycopg import sql

        connection = psycopg.connect(self.cluster.url(name, driver="postgresql"), autocommit=True,
                                     connect_timeout=10)
        self._cleaners[name] = (connection, None)
        connection.execute("SET lock_timeout = '10s'")
        tables = [row[0] for row in connection.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'alembic_version' "
            "ORDER BY tablename")]
        statement = sql.SQL("; ").join([
            sql.SQL("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = {} "
                    "AND pid <> pg_backend_pid()").format(sql.Literal(name)),
            sql.SQL("SET session_replication_role = replica"),  # no foreign key checks: every table is emptied
            *(sql.SQL("DELETE FROM {}").format(sql.Identifier(table)) for table in tables),
            sql.SQL("SET session_replication_role = DEFAULT")])
        self._cleaners[name] = (connection, statement)
        return connection, statement

    def _discard(self, name: str) -> None:
        connection, _ = self._cleaners.pop(name, (None, None))
        if connection is not None:
            connection.close()
        self.cluster.drop_database(name)

    def close(self) -> None:
        """Close the pool's own connections (its databases go with the cluster)."""
        for connection, _ in self._cleaners.values():
            connection.close()
        self._cleaners.clear()
        self._free.clear()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def start(parent: str | Path | None = None, *, durable: bool = False) -> Cluster:
    """initdb into a new temporary folder under `parent` (default: the system's temporary folder, which the
    `postgres` user can reach, unlike pytest's private one) and start the server; `durable` keeps PostgreSQL's
    own fsync and commit settings (for benchmarks) instead of `FAST`. Raises `Unavailable` when PostgreSQL is
    not installed, RuntimeError (with the server's log) when it does not start."""
    binaries = bindir()
    owner = _owner()
    folder = Path(tempfile.mkdtemp(prefix="viewer-pg-", dir=parent))
    cluster = Cluster(folder=folder, port=0, bin=binaries, owner=owner)
    try:
        if owner is not None:
            os.chown(folder, owner.pw_uid, owner.pw_gid)
        initdb = cluster._run("initdb", "-D", str(cluster.data), "-U", SUPERUSER, "--auth=trust", "--encoding=UTF8",
                              "--no-locale", "--no-sync", "--no-instructions", timeout=120)
        if initdb.returncode != 0:
            raise RuntimeError(f"initdb failed:\n{cluster.tail()}")
        with open(cluster.data / "postgresql.conf", "a") as conf:
            conf.write("\n# tests/postgres.py: a throwaway cluster on loopback\n")
            conf.write(f"unix_socket_directories = '{folder}'\n")
            for name, value in {**SETTINGS, **({} if durable else FAST)}.items():
                conf.write(f"{name} = {value}\n")
        for _ in range(START_ATTEMPTS):  # another process may take the free port before the server binds it
            cluster.port = _free_port()
            started = cluster._run("pg_ctl", "start", "-D", str(cluster.data), "-l", str(cluster.log), "-w",
                                   "-t", str(START_TIMEOUT), "-o", f"-p {cluster.port}", timeout=START_TIMEOUT + 10)
            if started.returncode == 0:
                return cluster
            if "already in use" not in cluster.tail():
                break
        raise RuntimeError(f"PostgreSQL did not start:\n{cluster.tail()}")
    except BaseException:
        cluster.stop()
        raise

"""Shared test setup: golden-file switch, Hypothesis profiles, the databases (SQLite and a throwaway PostgreSQL
cluster, tests/postgres.py) that the store and web tests run against, and the live server and Chromium that
tests/system/browser and tests/system/hostile share (one sync Playwright per process: a second one cannot start).

In CI (the `CI` environment variable set) a missing PostgreSQL or Chromium fails the tests that need it, with
the command that installs it; elsewhere they are skipped with that command in the reason."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
from hypothesis import HealthCheck, settings

from tests import postgres as pg

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_transcripts"
GOLDEN = Path(__file__).resolve().parent / "golden"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_INSTALL = "apt-get install -y chromium"
BACKENDS = ("sqlite", "postgresql")
"""What `db_backend` runs a test against: every test that uses a database fixture runs once on each."""
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]

# CI runs the property tests harder than a developer's quick loop.
settings.register_profile("ci", max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=200, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else os.environ.get("HYPOTHESIS_PROFILE", "dev"))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-goldens", action="store_true", help="rewrite tests/golden from the current parser")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "sqlite_only(reason): a database test that checks something only SQLite "
                                       "has (PRAGMAs, WAL): it runs on SQLite alone, not on PostgreSQL too")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Each test that needs `db_backend` (through `database_url`, the web tests' app, the store fixture…) runs
    once per backend, ids `[sqlite]` and `[postgresql]`; `@pytest.mark.sqlite_only` keeps it on SQLite."""
    if "db_backend" in metafunc.fixturenames:
        only = metafunc.definition.get_closest_marker("sqlite_only")
        # Module scope: a module's tests run on SQLite first, then on PostgreSQL, and module-scoped fixtures
        # (an app shared by a module's tests) may depend on the backend too.
        metafunc.parametrize("db_backend", BACKENDS[:1] if only else BACKENDS, scope="module")


def missing(what: str) -> None:
    """Skip a test for a missing system package, or fail it in CI, where `make test` should have installed it."""
    if os.environ.get("CI"):
        pytest.fail(f"CI: {what}", pytrace=False)
    pytest.skip(what)


@pytest.fixture(scope="session")
def postgres(request: pytest.FixtureRequest) -> pg.Cluster:
    """A throwaway PostgreSQL cluster on 127.0.0.1 for the whole session, stopped and removed at its end (also
    when tests fail; if pg_ctl cannot stop it, its process group is killed)."""
    try:
        cluster = pg.start()
    except pg.Unavailable as error:
        reason = str(error)
    else:
        request.addfinalizer(cluster.stop)
        return cluster
    missing(reason)  # outside the except: a failure in CI shows this line alone, not a chain of errors


@pytest.fixture(scope="session")
def postgres_databases(postgres: pg.Cluster) -> Iterator[pg.Pool]:
    """Databases at head, one lent to each test and emptied after it (tests/postgres.py: `Pool`): a test's store
    opens without migrating, and nothing of one test is left for the next."""
    from viewer.store import Store

    template = postgres.create_database("viewer_template")
    Store(postgres.url(template)).engine.dispose()  # nobody may be connected to a template
    pool = pg.Pool(postgres, template=template)
    yield pool
    pool.close()


def _database_maker(backend: str, folder: Path, request: pytest.FixtureRequest) -> Callable[..., str]:
    """`make(empty=False)`: a new database of `backend`, as a SQLAlchemy URL, for as long as the requesting
    fixture lasts: a SQLite file in `folder` (empty: the store migrates it), or a PostgreSQL database, at head
    and without rows (lent by `postgres_databases`), or with `empty=True` without tables (made for the test
    and dropped after it)."""
    made = iter(range(1000))
    if backend == "postgresql":  # here, not in `make`: a missing PostgreSQL skips (or fails) at setup
        cluster: pg.Cluster = request.getfixturevalue("postgres")
        pool: pg.Pool = request.getfixturevalue("postgres_databases")

    def make(empty: bool = False) -> str:
        number = next(made)
        if backend == "sqlite":
            return f"sqlite:///{folder / ('viewer.sqlite3' if number == 0 else f'viewer-{number}.sqlite3')}"
        if empty:
            name = cluster.create_database(template="template1")
            request.addfinalizer(lambda: cluster.drop_database(name))
        else:
            name = pool.take()
            request.addfinalizer(lambda: pool.give_back(name))
        return cluster.url(name)
    return make


@pytest.fixture
def fresh_database(db_backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Callable[..., str]:
    """Makes new databases of this test's backend (see `_database_maker`)."""
    return _database_maker(db_backend, tmp_path, request)


@pytest.fixture
def database_url(fresh_database: Callable[..., str]) -> str:
    """A database of this test's backend for this test alone (see `_database_maker`)."""
    return fresh_database()


@pytest.fixture(scope="module")
def module_database_url(db_backend: str, tmp_path_factory: pytest.TempPathFactory,
                        request: pytest.FixtureRequest) -> str:
    """A database of this backend shared by a module's tests (for an app that is costly to fill)."""
    return _database_maker(db_backend, tmp_path_factory.mktemp("database"), request)()


@pytest.fixture
def update_goldens(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-goldens"))


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app on a loopback port with a temporary database, for the browser."""
    from tests.harness.loopback import serving
    from viewer.web import create_app

    database = tmp_path_factory.mktemp("browser") / "viewer.sqlite3"
    app = create_app({"DATABASE": str(database), "SECRET_KEY": "browser-tests", "PRELOAD_SAMPLES": False,
                      "LIMITS": False})
    with serving(app) as httpd:
        yield f"http://127.0.0.1:{httpd.server_port}"


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's Chromium, driven by Playwright's sync API, for the whole session."""
    if not CHROMIUM.exists():
        missing(f"the browser tests need Chromium at {CHROMIUM}: run '{CHROMIUM_INSTALL}'")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()

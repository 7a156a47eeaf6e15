"""Every sample is preloaded under a stable id and opens in both views without an error."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import SAMPLES
from tests.web.conftest import soup
from viewer import bundles
from viewer.ingest.samples import preload, sample_id, sample_ids, sample_files

SAMPLE_FILES = sample_files(SAMPLES)


def test_sample_ids_are_derived_from_file_names():
    assert sample_id(Path("harmony-gpt-oss-weather.txt")) == "sample-harmony-gpt-oss-weather"
    ids = sample_ids([Path("a.txt"), Path("a.json"), Path("b.txt")])
    assert ids == {Path("a.txt"): "sample-a-txt", Path("a.json"): "sample-a-json", Path("b.txt"): "sample-b"}


def test_preload_is_idempotent(app, tmp_path):
    folder = tmp_path / "samples"
    folder.mkdir()
    (folder / "one.txt").write_bytes(b"<|start|>user<|message|>hi<|end|>")
    store = app.extensions["viewer.store"]
    assert preload(store, folder) == 1
    assert preload(store, folder) == 0


@pytest.fixture(scope="module")
def sample_client(tmp_path_factory, module_database_url):
    from viewer.web import create_app

    # A snapshot of the folder, so the app and the parametrized tests see the same files.
    folder = tmp_path_factory.mktemp("samples")
    for path in SAMPLE_FILES:
        shutil.copyfile(path, folder / path.name)
    app = create_app({"DATABASE": module_database_url, "SECRET_KEY": "t", "TESTING": True, "LIMITS": False,
                      "SAMPLES_DIR": str(folder)})
    yield app.test_client()
    # Its threads end first, as in tests/web/conftest.py's `make_app`.
    app.extensions["viewer.processor"].close()
    app.extensions["viewer.processor"].idle(30)
    app.extensions["viewer.store"].engine.dispose()


def test_home_page_lists_every_sample(sample_client):
    links = {a["href"] for a in soup(sample_client.get("/")).select(".sample-list a")}
    assert links == {f"/t/{id}" for id in sample_ids(SAMPLE_FILES).values()}


@pytest.mark.parametrize("path", SAMPLE_FILES, ids=[path.name for path in SAMPLE_FILES])
def test_every_sample_opens_in_both_views_and_as_json(sample_client, path):
    id = sample_ids(SAMPLE_FILES)[path]
    for url in (f"/t/{id}", f"/t/{id}?view=debug", f"/t/{id}.json", f"/t/{id}.json?view=debug"):
        assert sample_client.get(url).status_code == 200, url
    raw, sent = sample_client.get(f"/t/{id}/raw").data, path.read_bytes()
    if bundles.is_archive(sent) or bundles.is_database(sent):  # link holders get its text, never its bytes
        assert raw.startswith((b'{"bundle": 1', b'{"eval_archive": 1'))  # an Inspect .eval is read as its log
    else:
        assert raw == sent

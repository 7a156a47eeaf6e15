"""The command line's commands that need no database start without its library (issue 40): `render`, `parse`,
`convert`, `lint` and `formats` import neither SQLAlchemy, Alembic nor Flask; and `render` of a small file imports
only what reading and showing it needs: not the readers of other formats, nor the libraries that only some texts
need (Pillow for an image, detect-secrets where a secret may be, the checks of phone and other numbers, PyYAML
for a header). Each runs in a fresh interpreter, as a person runs it, and its loaded modules are read at exit;
what is imported, not how long it takes, so that the test says the same on any machine."""
from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import SAMPLES

WEATHER = SAMPLES / "harmony-gpt-oss-weather.txt"
UNUSED = ("sqlalchemy", "alembic", "flask")

RUN = """
import io, runpy, sys
sys.argv = ["viewer", *sys.argv[1:]]
sys.stdout = io.StringIO()  # what the command writes is not this test's
try:
    runpy.run_module("viewer", run_name="__main__")
except SystemExit as stopped:
    assert stopped.code == 0, stopped.code
sys.stdout = sys.__stdout__
print(" ".join(sorted(sys.modules)))
"""
SMALL_HARMONY = ("<|start|>user<|message|>hi<|end|><|start|>assistant<|channel|>final<|message|>Hello **there**"
                 "<|return|>\n")
ONLY_SOME_TEXTS_NEED = ("PIL", "detect_secrets", "requests", "urllib3", "phonenumbers", "stdnum", "yaml")


def loaded_by(command: list[str]) -> set[str]:
    """Every module a command has imported when it ends."""
    done = subprocess.run([sys.executable, "-c", RUN, *command], capture_output=True, text=True, timeout=120,
                          check=True)
    return set(done.stdout.split())


def packages(modules: set[str]) -> set[str]:
    return {name.split(".")[0] for name in modules}


@pytest.mark.parametrize("command", [
    ["render", str(WEATHER)],
    ["render", "--format", "md", str(WEATHER)],
    ["render", "--format", "json", "--view", "debug", str(WEATHER)],
    ["parse", str(WEATHER)],
    ["convert", "--to", "chatml", str(WEATHER)],
    ["lint", str(WEATHER)],
    ["formats"],
])
def test_a_command_without_a_database_imports_none_of_its_libraries(command):
    loaded = packages(loaded_by(command))
    assert "viewer" in loaded
    assert loaded.isdisjoint(UNUSED), sorted(loaded & set(UNUSED))


@pytest.mark.parametrize("form", ["html", "md", "json"])
def test_render_of_a_small_harmony_file_imports_no_other_reader_nor_a_library_its_text_does_not_need(tmp_path, form):
    small = tmp_path / "small.txt"
    small.write_text(SMALL_HARMONY)
    loaded = loaded_by(["render", "--format", form, "-o", str(tmp_path / f"small.{form}"), str(small)])
    assert "viewer.parse.harmony.reader" in loaded and "viewer.secrets.scan" in loaded  # read, and scanned
    assert packages(loaded).isdisjoint(ONLY_SOME_TEXTS_NEED), sorted(packages(loaded) & set(ONLY_SOME_TEXTS_NEED))
    json_readers = {name for name in loaded if name.startswith("viewer.parse.json.")} - {
        "viewer.parse.json.eval_archive"}  # decoding asks every upload whether it is an Inspect AI archive
    assert not json_readers and "viewer.parse.datasets" not in loaded, sorted(json_readers)

"""The command line's commands that need no database start without its library (issue 40): `render`, `parse`,
`convert`, `lint` and `formats` import neither SQLAlchemy, Alembic nor Flask. Each runs in a fresh interpreter, as
a person runs it, and its loaded modules are read at exit; what is imported, not how long it takes, so that the
test says the same on any machine."""
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
print(" ".join(sorted({name.split(".")[0] for name in sys.modules})))
"""


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
    done = subprocess.run([sys.executable, "-c", RUN, *command], capture_output=True, text=True, timeout=120,
                          check=True)
    loaded = set(done.stdout.split())
    assert "viewer" in loaded
    assert loaded.isdisjoint(UNUSED), sorted(loaded & set(UNUSED))

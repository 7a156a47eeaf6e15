"""The command line's exports run the present stage alone: `viewer render` and `viewer convert` never import the
web app, Flask or Werkzeug (a fresh interpreter, so no other test's imports count)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_transcripts" / "harmony-gpt-oss-weather.txt"
PROBE = """
import json, sys
from viewer import cli
out = sys.argv[1]
for view in ("default", "debug"):
    for form in ("html", "md", "json"):
        assert cli.main(["render", sys.argv[2], "--view", view, "--format", form, "-o", out]) == 0
assert cli.main(["convert", sys.argv[2], "--to", "chatml", "-o", out]) == 0
print(json.dumps(sorted(name for name in sys.modules if name.split(".")[0] in ("flask", "werkzeug")
                        or name.startswith("viewer.web"))))
"""


def test_render_and_convert_import_neither_flask_nor_the_web_app(tmp_path):
    done = subprocess.run([sys.executable, "-c", PROBE, str(tmp_path / "out"), str(SAMPLE)], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == []
    assert (tmp_path / "out").read_text(encoding="utf-8")  # the last export was written

"""The raw download's name in any script: `filename*=` (RFC 5987) with an ASCII `filename=` beside it. Through
gunicorn itself, which refuses a header it cannot send: tests/system/test_download_names.py."""
from __future__ import annotations

from urllib.parse import unquote

import pytest

from tests.web.conftest import WEATHER
from viewer.web.downloads import attachment

NAMES = {"会話ログ.txt": "transcript.txt", "模型对话记录.jsonl": "transcript.jsonl",
         "debug 🙂.txt": "debug.txt", "résumé.md": "resume.md"}


@pytest.mark.parametrize("name, fallback", NAMES.items())
def test_a_name_outside_ascii_is_sent_as_rfc_5987_with_an_ascii_fallback(name, fallback):
    value = attachment(name, "transcript")
    value.encode("ascii")  # nothing a server or a proxy could refuse
    plain, encoded = value.split("; ")[1:]
    assert plain == f"filename={fallback}"
    assert encoded.startswith("filename*=UTF-8''") and unquote(encoded.split("''", 1)[1]) == name


def test_an_ascii_name_is_sent_as_it_is():
    assert attachment("weather.txt", "x") == "attachment; filename=weather.txt"
    # Quotes and semicolons, which would end the value early, are dashes in the plain name.
    assert attachment('a "quoted"; name.txt', "x").startswith('attachment; filename="a -quoted- name.txt"; filename*=')


@pytest.mark.parametrize("name", NAMES)
def test_the_raw_download_of_an_upload_named_in_any_script_answers(client, name):
    id = client.post("/api/transcripts", data=WEATHER.read_bytes(),
                     query_string={"name": name, "debug": "allow"}).get_json()["id"]
    response = client.get(f"/t/{id}/raw")
    assert response.status_code == 200 and response.data == WEATHER.read_bytes()
    header = response.headers["Content-Disposition"]
    header.encode("ascii")
    assert unquote(header.split("filename*=UTF-8''", 1)[1]) == name

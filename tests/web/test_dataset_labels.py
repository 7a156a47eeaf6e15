"""A batch file's index names each conversation by its `custom_id`, in the page and in its JSON twin."""
from __future__ import annotations

import json

from tests.web.conftest import soup

LINES = [{"custom_id": f"request-{n}", "method": "POST", "url": "/v1/chat/completions",
          "body": {"model": "m", "messages": [{"role": "user", "content": f"Question {n}"}]}} for n in (1, 2)]
RAW = "".join(json.dumps(line) + "\n" for line in LINES).encode()


def test_the_index_of_a_batch_shows_each_custom_id(client, owned):
    id = owned(RAW)
    page = soup(client.get(f"/t/{id}"))
    assert [code.get_text() for code in page.select("table.conversations code.record-label")] == [
        "request-1", "request-2"]
    twin = client.get(f"/t/{id}.json").get_json()
    assert [conversation["custom_id"] for conversation in twin["conversations"]] == ["request-1", "request-2"]


def test_a_dataset_without_custom_ids_shows_no_labels(client, owned):
    raw = b'{"messages": [{"role": "user", "content": "Hi"}]}\n' * 2
    page = soup(client.get(f"/t/{owned(raw)}"))
    assert page.select("code.record-label") == []
    assert all("custom_id" not in c for c in client.get(f"/t/{owned(raw)}.json").get_json()["conversations"])

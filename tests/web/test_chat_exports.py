"""A chat app's export is a dataset: its index lists each conversation with its title and date (in the page and
its JSON twin), an empty conversation opens with a note, and each conversation's default view shows the branch
the app showed, saying that other versions exist."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.web.conftest import soup

SAMPLES = Path(__file__).resolve().parents[2] / "sample_transcripts"
CHATGPT = SAMPLES / "chatgpt-export-branches-tools-memory.json"
CLAUDE = SAMPLES / "claude-ai-export-branches-tools-attachments.json"


@pytest.mark.parametrize("sample, titles", [
    (CHATGPT, ["Lisbon in two days", "Sine fit", "Curry without peanuts", "New chat"]),
    (CLAUDE, ["Tram 28 timetable", "A haiku about rain", "Summarise the minutes", ""]),
])
def test_the_index_of_an_export_shows_each_conversations_title_and_date(client, owned, sample, titles):
    id = owned(sample.read_bytes())
    page = soup(client.get(f"/t/{id}"))
    assert [cell.get_text() for cell in page.select("table.conversations td.record-title")] == titles
    assert all(cell.select_one("time") for cell in page.select("table.conversations tbody tr td:nth-of-type(3)"))
    twin = client.get(f"/t/{id}.json").get_json()["conversations"]
    assert [c.get("title", "") for c in twin] == titles
    assert all(c["created"][:2] == "20" for c in twin)


def test_an_empty_conversation_is_listed_and_opens_with_a_note(client, owned):
    id = owned(CHATGPT.read_bytes())
    row = soup(client.get(f"/t/{id}")).select("table.conversations tbody tr")[3]
    assert "New chat" in row.get_text()
    response = client.get(f"/t/{id}/c/3")
    assert response.status_code == 200
    assert "No messages were found" in soup(response).get_text()


def test_a_conversations_page_is_titled_after_it(client, owned):
    id = owned(CHATGPT.read_bytes())
    assert "Sine fit" in soup(client.get(f"/t/{id}/c/1")).title.get_text()


def test_the_exports_of_an_export_head_each_conversation_with_its_title(client, owned):
    id = owned(CHATGPT.read_bytes())
    assert "## Conversation #1 · Sine fit" in client.get(f"/t/{id}.md").get_data(as_text=True)
    assert "<h2>Conversation #1 · Sine fit</h2>" in client.get(f"/t/{id}.html").get_data(as_text=True)

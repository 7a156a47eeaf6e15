"""A preference pair's chosen and rejected answers side by side: its page links to the compare page of its two
sides (`<id>~chosen` and `<id>~rejected`, in the debug view), for the readers who may see the rejected answer."""
from __future__ import annotations

import json

from tests.web.conftest import soup, text_of

PAIR = json.dumps({"prompt": [{"role": "user", "content": "What colour is the sky?"}],
                   "chosen": [{"role": "assistant", "content": "It is blue on a clear day."}],
                   "rejected": [{"role": "assistant", "content": "It is green, always."}]}).encode()


def answers_link(page) -> str | None:
    found = soup(page).find("a", string="Chosen vs rejected answers")  # in the toolbar's menu
    return found["href"] if found else None


def test_a_preference_pair_links_to_its_answers_side_by_side(stranger, upload):
    id = upload(PAIR, debug="allow")["id"]
    link = answers_link(stranger.get(f"/t/{id}"))
    assert link == f"/compare/{id}~chosen/{id}~rejected?view=debug"
    page = stranger.get(link)
    assert page.status_code == 200
    shown = text_of(page)
    assert "chosen answer" in shown and "rejected answer" in shown
    changed = soup(page).select(".cmp-row.cmp-changed")
    assert len(changed) == 1 and "blue" in changed[0].get_text() and "green" in changed[0].get_text()
    assert len(soup(page).select(".cmp-row.cmp-same")) == 1  # the prompt, once on each side


def test_a_link_holder_without_debug_access_gets_no_link_and_no_rejected_answer(stranger, upload):
    id = upload(PAIR, debug="deny")["id"]
    page = stranger.get(f"/t/{id}")
    assert answers_link(page) is None and "green" not in page.get_data(as_text=True)
    assert stranger.get(f"/compare/{id}~chosen/{id}~rejected?view=debug").status_code == 403
    # The default view of the rejected side is its prompt alone: the answer stays hidden.
    default = stranger.get(f"/compare/{id}~chosen/{id}~rejected")
    assert default.status_code == 200 and "green" not in default.get_data(as_text=True)


def test_a_transcript_that_is_no_preference_pair_has_no_such_link(stranger, upload):
    plain = json.dumps([{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello"}]).encode()
    assert answers_link(stranger.get(f"/t/{upload(plain, debug='allow')['id']}")) is None

"""`mask` leaves no character of a secret, and a preview never shows more than 8 characters of one."""
from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from tests.secrets.canaries import canaries
from viewer.secrets import Finding, mask, preview, scan_text
from viewer.secrets.finding import ELLIPSIS

CANARIES = canaries(seed=7)


@pytest.mark.parametrize("canary", CANARIES, ids=lambda canary: f"{canary.kind}:{canary.secret[:6]}")
def test_masking_replaces_the_whole_secret_by_a_labelled_placeholder(canary):
    end = canary.start + len(canary.secret)
    assert mask(canary.text, scan_text(canary.text)) == \
        f"{canary.text[:canary.start]}[secret: {canary.kind}]{canary.text[end:]}"


def test_masking_every_canary_in_one_text_leaves_no_line_of_any_secret():
    text = "\n\n".join(canary.text for canary in CANARIES)
    masked = mask(text, scan_text(text))
    for canary in CANARIES:
        assert not any(line in masked for line in canary.secret.splitlines() if len(line) >= 8), canary.kind
    assert masked.count("[secret: ") == len(CANARIES)


def test_overlapping_findings_are_masked_as_one_span():
    text = "a 0123456789 b"
    assert mask(text, [Finding(2, 8, "Token", "…"), Finding(5, 12, "Password", "…")]) == "a [secret: Token] b"


@pytest.mark.parametrize("canary", CANARIES, ids=lambda canary: f"{canary.kind}:{canary.secret[:6]}")
def test_a_findings_preview_shows_at_most_four_characters_of_each_end(canary):
    [finding] = scan_text(canary.text)
    shown = finding.preview.replace(ELLIPSIS, "")
    assert len(shown) <= 8 and finding.preview.count(ELLIPSIS) == 1
    head, tail = finding.preview.split(ELLIPSIS)
    assert canary.secret.startswith(head) and canary.secret.endswith(tail)


def test_a_private_key_has_no_preview():
    key = next(canary for canary in CANARIES if canary.kind == "Private key")
    assert scan_text(key.text)[0].preview == ELLIPSIS


@given(st.text(max_size=300))
def test_a_preview_shows_one_character_of_each_end_per_ten_and_never_more_than_eight(secret):
    shown = preview(secret).replace(ELLIPSIS, "", 1)
    assert len(shown) <= min(8, 2 * (len(secret) // 10))

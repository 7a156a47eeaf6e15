"""Secrets of known shapes planted in random prose at random places are each found with their exact span."""
from __future__ import annotations

import string

from hypothesis import given, strategies as st

from viewer.secrets import mask, scan_text

ALNUM = string.ascii_letters + string.digits
URLSAFE = ALNUM + "-_"
HEX = "0123456789abcdef"


def body(alphabet: str, size: int) -> st.SearchStrategy[str]:
    """Random characters as a key has them: many different ones, letters and digits both."""
    return st.text(alphabet, min_size=size, max_size=size).filter(
        lambda text: len(set(text)) > 8 and any(c.isdigit() for c in text) and any(c.isalpha() for c in text))


SHAPES = {
    "GitHub token": body(ALNUM, 36).map("ghp_".__add__),
    "AWS access key": body(string.ascii_uppercase + string.digits, 16).map("AKIA".__add__),
    "Slack token": st.tuples(body(string.digits, 11), body(string.digits, 12), body(HEX, 24)).map(
        lambda parts: "xoxb-" + "-".join(parts)),
    "Stripe key": body(ALNUM, 40).map("sk_live_".__add__),
    "OpenAI API key": body(URLSAFE, 120).map("sk-proj-".__add__),
    "Anthropic API key": body(URLSAFE, 95).map("sk-ant-api03-".__add__),
    "Hugging Face token": body(string.ascii_letters, 34).map("hf_".__add__),
    "Google API key": body(URLSAFE, 35).map("AIza".__add__),
    "Groq API key": body(ALNUM, 52).map("gsk_".__add__),
    "SendGrid API key": st.tuples(body(URLSAFE, 22), body(URLSAFE, 43)).map(lambda parts: "SG." + ".".join(parts)),
    "Twilio key": body(string.ascii_lowercase + string.digits, 32).map("SK".__add__),
    "npm token": body(ALNUM, 36).map("npm_".__add__),
}
WORDS = ("the", "model", "answered", "with", "a", "token", "count", "of", "42.", "See", "https://example.com/docs",
         "for", "details", "—", "naïve", "café", "İstanbul", "(note)", "«quoted»", "x", "I", "will", "retry.",
         "🙂")
SEPARATORS = (" ", "\n", "\t", " (", ") ", ' "', '" ', " '", "' ", "\n\n", " `", "` ", ", ")

prose = st.lists(st.sampled_from(WORDS), max_size=40).map(" ".join)
planted = st.lists(st.tuples(st.sampled_from(sorted(SHAPES)).flatmap(
    lambda kind: st.tuples(st.just(kind), SHAPES[kind])), st.sampled_from(SEPARATORS), st.sampled_from(SEPARATORS),
    prose), min_size=1, max_size=4)


@given(prose, planted)
def test_every_planted_secret_is_found_with_its_exact_span_and_kind(opening, secrets):
    parts, expected, at = [opening], [], len(opening)
    for (kind, secret), before, after, words in secrets:
        if kind == "npm token":  # found only in an .npmrc line, one a line
            before, after = "\n//registry.npmjs.org/:_authToken=", "\n"
        parts += [before, secret, after, words]
        at += len(before)
        expected.append((at, at + len(secret), kind))
        at += len(secret) + len(after) + len(words)
    text = "".join(parts)
    found = scan_text(text)
    assert [(finding.start, finding.end, finding.kind) for finding in found] == expected
    masked = mask(text, found)
    assert all(secret not in masked for (_, secret), *_ in secrets)

"""Personal data is found by its shape and a check the shape alone cannot pass, in every written form people use;
near misses (versions, hashes, UUIDs, timestamps, code identifiers, numbers of no network or plan) are not."""
from __future__ import annotations

import json
import random
import string
import uuid

import pytest

from tests.harness.gen import generate
from viewer.ingest import examine
from viewer.secrets.finding import placeholder_of
from viewer.secrets.personal.kinds import placeholder
from viewer.secrets.personal.scan import scan_personal, scan_with_secrets

FOUND = [
    ("email", "Write to maria.lopez@fastmail.com today", "maria.lopez@fastmail.com"),
    ("email", "cc: J.O'Neil+shop@mail.example-isp.co.uk,", "J.O'Neil+shop@mail.example-isp.co.uk"),
    ("phone", "call me on 07700 900123.", "07700 900123"),
    ("phone", "office: 020 7946 0958", "020 7946 0958"),
    ("phone", "US line +1 415-555-0132 after five", "+1 415-555-0132"),
    ("phone", "or (415) 555-0132 at home", "(415) 555-0132"),
    ("phone", "Berlin +49 30 901820", "+49 30 901820"),
    ("phone", "dial 0044 20 7946 0958", "0044 20 7946 0958"),
    ("card", "card 4539 1488 0343 6467 exp", "4539 1488 0343 6467"),
    ("card", "pan=4539148803436467;", "4539148803436467"),
    ("card", "amex 3714-496353-98431", "3714-496353-98431"),
    ("card", "mc 5555-5555-5555-4444", "5555-5555-5555-4444"),
    ("iban", "IBAN GB82 WEST 1234 5698 7654 32 please", "GB82 WEST 1234 5698 7654 32"),
    ("iban", '"DE89370400440532013000"', "DE89370400440532013000"),
    ("us-ssn", "SSN 536-22-8726.", "536-22-8726"),
    ("us-ssn", "social security number: 536228726", "536228726"),
    ("uk-nino", "NI number AB 12 34 56 C", "AB 12 34 56 C"),
    ("uk-nino", "nino=JG103759A", "JG103759A"),
    ("uk-nhs", "NHS number 943 476 5919", "943 476 5919"),
    ("ca-sin", "SIN: 130 692 544", "130 692 544"),
    ("es-dni", "DNI 48293017D", "48293017D"),
    ("es-dni", "NIE X7265183N", "X7265183N"),
    ("it-cf", "codice fiscale RCCMNL83S18D969H", "RCCMNL83S18D969H"),
    ("ip", "from 81.2.69.160 at", "81.2.69.160"),
    ("ip", "client 2a00:1450:4001:81b::200e connected", "2a00:1450:4001:81b::200e"),
]


@pytest.mark.parametrize("kind, text, value", FOUND)
def test_each_kind_is_found_in_the_forms_people_write_it(kind, text, value):
    assert [(finding.kind, finding.secret) for finding in scan_personal(text)] == [(kind, value)]


NEAR_MISSES = [
    "version 1.2.3.4", "v4.2.1.0", "pkg==10.0.19041.1", "Python 3.11.4", "node@20.11.1", "numpy>=1.26.4",
    "2025-08-03T10:15:09.799Z", "2025-08-03 10:15:09", "at 10:15:09", "ts=1700000000", "1700000000123",
    "1722691200000000", "elapsed 0.4532015112830366 s", "ratio 3.14159265358979",
    "550e8400-e29b-41d4-a716-446655440000", "call_4155550132x", "id: 01HZX3N4Q5R6S7T8V9W0XYZ123",
    "sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "commit 4539148803436467abcdef",
    "md5 d41d8cd98f00b204e9800998ecf8427e", "icon@2x.png", "git@github.com:owner/repo.git", "@app.route('/')",
    "user@example.com", "ops@localhost", "me@host.test", "noreply@github.com", "@types/node@20.11.5",
    "docker pull nginx@sha256:0123456789abcdef", "port 8080", "0x7fffffff", "0123456789", "string.digits",
    "RFC 2616 section 8.2.4.44", "::1", "ff00::", "127.0.0.1", "10.0.0.12", "192.168.1.1", "8.8.8.8",
    "fe80::1ff:fe23:4567:890a", "MD5SUM", "SHA256", "AB12CD34", "HTTP/1.1 200 OK", "$1,234,567.89",
    "order #123456789", "(1, 2, 3, 4, 5, 6, 7)", "1 2 3 4 5 6 7 8", "line 1234, column 5678", "QQ123456C",
    "4111 1111 1111 1112", "1234 5678 9012 3456", "123-45-6789", "000-12-3456", "NHS 123 456 7890", "12345678Z",
]
"""What is not personal data however it looks: versions, timestamps, floats, UUIDs, hashes, code identifiers,
reserved and service mailboxes, private and special addresses, numbers of no card network or failing their
check, and numbers whose checksum is too weak to count without their name."""


@pytest.mark.parametrize("text", NEAR_MISSES)
def test_near_misses_are_not_personal_data(text):
    assert scan_personal(text) == []


def test_random_identifiers_hashes_and_times_are_not_personal_data():
    rng = random.Random(43)
    lines = []
    for _ in range(2000):
        lines += [str(uuid.UUID(int=rng.getrandbits(128))), "%040x" % rng.getrandbits(160),
                  f"{rng.randint(2000, 2030)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T"
                  f"{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}.{rng.randint(0, 999):03d}Z",
                  f"v{rng.randint(0, 30)}.{rng.randint(0, 30)}.{rng.randint(0, 300)}",
                  "".join(rng.choice(string.ascii_letters + "_") for _ in range(12)) + f"_{rng.randint(0, 99)}"]
    assert scan_personal("\n".join(lines)) == []


def test_generated_transcripts_hold_no_personal_data():
    assert scan_personal(generate(megabytes=1)) == []


def test_personal_data_inside_a_secret_is_the_secrets():
    token = "ghp_4539148803436467" + "a" * 20
    kinds = [finding.kind for finding in scan_with_secrets(f"token {token} and maria.lopez@fastmail.com")]
    assert kinds == ["GitHub token", "email"]


def test_placeholders_say_the_kind_and_a_cards_last_four_digits():
    assert placeholder("card", "4539 1488 0343 6467") == "[card …6467]"
    assert placeholder("email", "a@b.co") == "[email]" and placeholder("phone", "07700 900123") == "[phone]"
    assert [placeholder_of(found) for found in scan_personal("IBAN DE89370400440532013000")] == ["[IBAN]"]


def test_json_escaped_and_unescaped_spellings_are_masked_in_the_source_and_every_field():
    name = "jos\u00e9.pe\u00f1a@correo.es"
    raw = json.dumps({"messages": [{"role": "user", "content": f"Escr\u00edbeme a {name}, gracias"},
                                   {"role": "assistant", "content": None, "tool_calls": [{
                                       "id": "c1", "type": "function", "function": {
                                           "name": "send", "arguments": json.dumps({"to": name})}}]}]})
    assert "\\u00e9" in raw  # written with escapes, twice over in the call's arguments
    examined = examine(raw)
    shown = examined.shared.transcript
    texts = [shown.source, *(message.content for message in shown.messages)]
    assert not any(form in text for text in texts for form in (name, json.dumps(name)[1:-1],
                                                                json.dumps(json.dumps(name))[1:-1]))
    assert "Escr\u00edbeme a [email], gracias" in shown.messages[0].content
    assert [found.value for found in examined.personal] == [name]


def test_a_window_cut_inside_an_id_makes_no_number_of_the_digits_it_starts_with():
    """The window around the phone anchor (`+48…`) starts 32 characters back, inside the IBAN-like id glued to a
    word: its last ten digits are no phone number, as the whole line shows."""
    assert scan_personal("x1 cdéDE89370400440532013000(callxinsurance+phone+48293017Dé19999x") == []


def test_a_number_named_far_from_any_other_digits_is_found_after_its_name():
    """Named numbers are looked for after their names (their own anchors), not around runs of digits."""
    text = "user_0001234567 wrote: my NHS number: 943 476 5919"
    assert [(finding.kind, finding.secret) for finding in scan_personal(text)] == [("uk-nhs", "943 476 5919")]

"""`scan_text` finds a secret of every kind it knows, with its kind and its exact span, wherever it stands."""
from __future__ import annotations

import json
import random

import pytest

from tests.secrets.canaries import CONTEXTS, PRIVATE, Canary, canaries, draw, pem, start_of
from viewer.secrets import KINDS, Finding, scan_text
from viewer.secrets.finding import preview

CANARIES = canaries(seed=1)


def spans(text: str) -> list[tuple[int, int, str]]:
    return [(finding.start, finding.end, finding.kind) for finding in scan_text(text)]


def test_every_kind_the_scanner_reports_has_a_canary():
    assert {canary.kind for canary in CANARIES} == set(KINDS)


@pytest.mark.parametrize("canary", CANARIES, ids=lambda canary: f"{canary.kind}:{canary.secret[:6]}")
def test_a_canary_is_found_with_its_kind_and_exact_span(canary: Canary):
    assert scan_text(canary.text) == [Finding(canary.start, canary.start + len(canary.secret), canary.kind,
                                              preview(canary.secret, canary.kind))]


@pytest.mark.parametrize("context", CONTEXTS)
@pytest.mark.parametrize("canary", [canary for canary in CANARIES if canary.free],
                         ids=lambda canary: f"{canary.kind}:{canary.secret[:6]}")
def test_a_secret_of_its_own_shape_is_found_in_prose_json_code_urls_and_headers(canary: Canary, context: str):
    start = start_of(context)
    assert spans(context.format(canary.secret)) == [(start, start + len(canary.secret), canary.kind)]


@pytest.mark.parametrize("seed", range(2, 12))
def test_canaries_drawn_from_other_seeds_are_found_too(seed):
    for canary in canaries(seed):
        assert spans(canary.text) == [(canary.start, canary.start + len(canary.secret), canary.kind)], canary.kind


def test_tool_call_arguments_as_json_with_a_private_key_mask_the_escaped_block():
    key = pem(random.Random(4), "RSA " + PRIVATE)
    arguments = json.dumps({"path": "/home/ada/.ssh/id_rsa", "content": key, "mode": "0600"})
    start = arguments.index("-----BEGIN")
    end = arguments.index("-----", arguments.index("-----END") + 5) + 5
    assert spans(arguments) == [(start, end, "Private key")]


def test_a_private_key_cut_short_is_masked_as_far_as_its_lines_go():
    key = pem(random.Random(5), "OPENSSH " + PRIVATE)
    cut = "\n".join(key.splitlines()[:4])
    text = f"$ head -4 ~/.ssh/id_ed25519\n{cut}\nThat is the start of the key.\n"
    start = text.index("-----BEGIN")
    assert spans(text) == [(start, start + len(cut), "Private key")]


def test_a_token_used_as_a_url_password_is_named_by_its_own_kind():
    token = CANARIES[2].secret  # a GitHub token
    text = f"git clone https://x-access-token:{token}@github.com/acme/app.git"
    start = text.index(token)
    assert spans(text) == [(start, start + len(token), "GitHub token")]


def test_a_jwt_ending_a_sentence_leaves_the_full_stop():
    jwt = next(canary.secret for canary in CANARIES if canary.kind == "JSON Web Token")
    text = f"The session cookie was {jwt}. It expires tomorrow."
    start = text.index(jwt)
    assert spans(text) == [(start, start + len(jwt), "JSON Web Token")]


def test_offsets_count_characters_when_lowercasing_would_change_the_length():
    canary = next(canary for canary in CANARIES if canary.kind == "Token")
    text = "İstanbul İzmir " * 3 + canary.text
    start = len(text) - len(canary.text) + canary.start
    assert spans(text) == [(start, start + len(canary.secret), "Token")]


@pytest.mark.parametrize("name", ["apı_key", "paſſword", "prİvate_key", "\u212aey_pass"])
def test_a_name_spelt_with_letters_case_insensitive_matching_takes_for_ascii_ones_is_a_name(name: str):
    text = f'{name} = "Zq9x-44kLm"'
    start = text.index("Zq9x")
    assert spans(text) == [(start, start + 10, "Password" if "pa" in name else "API key")]


@pytest.mark.parametrize("text", ['curl -H "Bearer {}" https://api.example.com', "bearer={}", "BEARER\t{}."])
def test_a_token_after_the_bearer_scheme_alone_is_a_bearer_token(text: str):
    token = "Zx81kQ0pLm3nB7vC2xR9tY4u"
    start = text.format(token).index(token)
    assert spans(text.format(token)) == [(start, start + len(token), "Bearer token")]


def test_a_line_written_again_and_again_has_its_secrets_found_in_every_copy():
    line = f'password = "Zq9x-44kLm" and token {CANARIES[0].secret}\n'
    text = "\n".join([line] * 3)
    wanted = [(copy * (len(line) + 1) + line.index(secret), copy * (len(line) + 1) + line.index(secret) + len(secret))
              for copy in range(3) for secret in ("Zq9x-44kLm", CANARIES[0].secret)]
    assert [(start, end) for start, end, _ in spans(text)] == wanted


def test_secrets_are_found_on_a_long_line_dense_with_names_and_hashes():
    token = CANARIES[0].secret  # an AWS access key
    fields = [f'"key_{number}": "{draw(random.Random(number), "0123456789abcdef", 40)}"'
              for number in range(2_000)]
    fields.insert(1_500, f'"aws_access_key_id": "{token}"')
    text = "{" + ", ".join(fields) + "}"
    start = text.index(token)
    assert spans(text) == [(start, start + len(token), "AWS access key")]


@pytest.mark.parametrize("text", [
    "The key idea is to cache the response; each token costs money.",
    'password = os.environ["DB_PASSWORD"]',
    'api_key = "YOUR_API_KEY"',
    '{"api_key_id": "key_01HZX3J5K2M4N6P8Q0R2S4T6V8", "password": "<your password>"}',
    "Password: required. Username: your email address.",
    "postgres://app@localhost:5432/db and https://github.com/acme/app/commit/9fceb02d0ae598e95dc970b74767f19372d61af8",
    '{"token": "550e8400-e29b-41d4-a716-446655440000", "next_page_token": "CiAKGjBpNDd2Nmp4azY2b2ZfMTIzNDU2Nzg5"}',
    "sk-learn-style-names and task-runner-configuration are not keys",
    "The bearer of the certificate_authority_identifier2 signs it; Bearer authentication is older.",
    '{"sid": "AC' + "x" * 32 + '"}',
    "{'MODULE_PWD_STATE': 'yes', 'MODULE_SPWD_STATE': 'no', 'SECRET_SCANNING': 'enabled'}",
    json.dumps({"content": 'elif cmd == "pinauth" and secret == self.secret:\n    return self.pin_auth(request)'}),
])
def test_ordinary_text_code_and_placeholders_are_not_secrets(text):
    assert scan_text(text) == []

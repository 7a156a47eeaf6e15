"""`scan_transcript` finds secrets in every field a link holder could see, with the message, the field and
offsets into the field's own text; `diagnostics` reports each secret once as W-SECRET, without the secret."""
from __future__ import annotations

import json
import re

from hypothesis import example, given, settings, strategies as st

from tests.secrets.canaries import canaries
from viewer.parse import parse
from viewer.secrets import FieldSecret, diagnostics, mask, scan_transcript
from viewer.secrets.transcript import _find_slice

SECRET = {}
for _canary in canaries(seed=5):
    SECRET.setdefault(_canary.kind, _canary.secret)
GITHUB, OPENAI, ANTHROPIC, KEY = (SECRET[kind] for kind in ("GitHub token", "OpenAI API key", "Anthropic API key",
                                                             "Private key"))
HF, GOOGLE, URL_PASSWORD = SECRET["Hugging Face token"], SECRET["Google API key"], SECRET["Password in URL"]


def field_text(transcript, located: FieldSecret) -> str:
    """The text a finding's offsets point into."""
    if located.field == "source":
        return transcript.source
    if located.field in ("yaml_header", "tools"):
        value = transcript.header if located.field == "yaml_header" else transcript.tools
        for step in located.path[:-1] if located.key else located.path:
            value = value[step]
        return located.path[-1] if located.key else value
    part = transcript.conversations[located.conversation] if located.conversation is not None else transcript
    message = part.messages[located.message_index]
    if located.field == "segments":
        return message.segments[located.path[0]].text
    if located.field == "header":
        return transcript.source[message.header[0]:message.header[1]]
    return getattr(message, located.field)


def found(transcript) -> dict[tuple, list[str]]:
    """(field, message index, path) -> the secrets found there, read through each finding's offsets."""
    result: dict[tuple, list[str]] = {}
    for located in scan_transcript(transcript):
        text = field_text(transcript, located)
        result.setdefault((located.field, located.message_index, located.path), []).append(
            text[located.finding.start:located.finding.end])
    return result


HARMONY = (f"---\nversion: 2.2\nmodel: gpt-oss-20b\nhf_token: {HF}\n---\n"
           f"<|start|>user<|message|>Deploy with my token {GITHUB}, thanks.<|end|>"
           f"<|start|>assistant to=functions.deploy call_id={GOOGLE}<|channel|>commentary <|constrain|>json<|message|>"
           + json.dumps({"api_key": OPENAI, "target": "prod"}) + "<|call|>"
           f"<|start|>functions.deploy to=assistant<|channel|>commentary<|message|>cat ~/.ssh/id_rsa\n{KEY}\n<|end|>"
           f"<|start|>assistant<|channel|>final<|message|>Done. I used {ANTHROPIC}.<|return|>")


def test_secrets_are_found_in_bodies_arguments_outputs_headers_and_the_yaml_header():
    transcript = parse(HARMONY)
    result = found(transcript)
    assert result[("content", 0, ())] == [GITHUB]
    assert result[("content", 1, ())] == [OPENAI]  # the tool call's JSON arguments
    assert result[("content", 2, ())] == [KEY]  # the tool's output, all lines of the key
    assert result[("content", 3, ())] == [ANTHROPIC]
    assert result[("header", 1, ())] == result[("call_id", 1, ())] == [GOOGLE]
    assert result[("yaml_header", None, ("hf_token",))] == [HF]
    sources = [secret for (field, *_), secrets in result.items() if field == "source" for secret in secrets]
    assert sources == [HF, GITHUB, GOOGLE, OPENAI, KEY, ANTHROPIC]


def test_each_secret_is_one_warning_that_names_its_kind_and_never_holds_it():
    transcript = parse(HARMONY)
    made = diagnostics(scan_transcript(transcript))
    assert [(diagnostic.code, diagnostic.severity, diagnostic.message_index) for diagnostic in made] == \
        [("W-SECRET", "warning", None)] + [("W-SECRET", "warning", index) for index in (0, 1, 1, 2, 3)]
    assert [transcript.text(diagnostic.span) for diagnostic in made] == [HF, GITHUB, GOOGLE, OPENAI, KEY, ANTHROPIC]
    for diagnostic in made:
        assert not any(part in diagnostic.message for part in (HF[4:-4], GITHUB[4:-4], OPENAI[4:-4], KEY[40:80]))
    assert "A secret (GitHub token, ghp_…" in made[1].message and made[4].message.startswith("A secret (Private key)")


def test_masking_the_source_by_its_findings_leaves_no_secret():
    transcript = parse(HARMONY)
    masked = mask(transcript.source, [located.finding for located in scan_transcript(transcript)
                                      if located.field == "source"])
    assert not any(secret in masked for secret in (HF, GITHUB, GOOGLE, OPENAI, ANTHROPIC))
    assert not any(line in masked for line in KEY.splitlines()[1:-1])


def chat_json() -> str:
    """OpenAI chat messages whose writer escaped every slash, with a key file written through a tool."""
    return json.dumps({"messages": [
        {"role": "user",
         "content": f"Use {GITHUB} and the database at postgres://ada:{URL_PASSWORD}@db.example.com/app"},
        {"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function", "function": {
            "name": "write_file", "arguments": json.dumps({"path": "id_rsa", "content": KEY})}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": KEY},
    ]}).replace("/", "\\/")


def test_bodies_unescaped_from_json_are_scanned_as_the_link_holder_reads_them():
    transcript = parse(chat_json())
    result = found(transcript)
    assert result[("content", 0, ())] == [GITHUB, URL_PASSWORD]  # a URL whose slashes the source escapes
    assert result[("content", 2, ())] == [KEY]  # real line breaks here, `\n` escapes in the source
    assert URL_PASSWORD not in result[("source", 0, ())]


def test_a_secret_in_a_json_body_is_reported_once_though_found_in_the_source_and_the_body():
    transcript = parse(chat_json())
    made = diagnostics(scan_transcript(transcript))
    kinds = sorted(re.match(r"A secret \(([^,)]+)", diagnostic.message)[1] for diagnostic in made)
    assert kinds == ["GitHub token", "Password in URL", "Private key", "Private key"]


def test_a_datasets_findings_name_their_conversation():
    lines = "\n".join(json.dumps({"messages": [{"role": "user", "content": "Hi"},
                                              {"role": "assistant", "content": f"key {secret}"}]})
                      for secret in (GITHUB, OPENAI))
    located = [item for item in scan_transcript(parse(lines)) if item.field == "content"]
    assert [(item.conversation, item.message_index, item.finding.kind) for item in located] == \
        [(0, 1, "GitHub token"), (1, 1, "OpenAI API key")]
    assert [len(diagnostics(located, conversation)) for conversation in (None, 0, 1)] == [0, 1, 1]


def test_a_transcript_without_secrets_has_no_findings():
    transcript = parse("<|start|>user<|message|>What is the key idea of this paper?<|end|>"
                       "<|start|>assistant<|channel|>final<|message|>Tokens are cheap.<|return|>")
    assert scan_transcript(transcript) == []


@settings(max_examples=300, deadline=None)
@given(st.text("ab", max_size=200), st.text("ab", min_size=1, max_size=150), st.text("ab", max_size=200),
       st.integers(0, 550), st.integers(0, 550))
@example("a" * 80, "a" * 70 + "b", "", 0, 80)  # its head again and again, but too near the end for all of it
def test_a_field_is_found_in_the_source_exactly_where_str_find_finds_it(before, text, after, start, end):
    source = before + text + after  # short and long fields, heads that repeat before the field itself
    assert _find_slice(source, text, start, end) == source.find(text, start, end)

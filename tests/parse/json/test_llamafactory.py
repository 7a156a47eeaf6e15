"""LLaMA-Factory's v1 rows: content parts keyed `value` read as the conversation they are (reasoning hidden, calls
paired in order, media named), loss weights and tools kept, and preference rows read as preference pairs."""
from __future__ import annotations

import json

from tests.conftest import SAMPLES
from tests.parse.helpers import codes
from viewer import parse
from viewer.policy import Projection


def said(role: str, *parts: tuple[str, str], **extra) -> dict:
    return {"role": role, "content": [{"type": kind, "value": value} for kind, value in parts], **extra}


def call(name: str, **arguments) -> tuple[str, str]:
    return "tool_call", json.dumps({"name": name, "arguments": arguments})


def shown(transcript) -> list[str]:
    return [m.content for m, d in zip(transcript.messages, Projection.of(transcript).decisions())
            if d.show_as == "message"]


def test_a_row_of_content_parts_reads_as_its_conversation_with_reasoning_hidden():
    transcript = parse(json.dumps({"messages": [
        said("system", ("text", "Be careful.")), said("user", ("text", "VAT on 400 DKK?")),
        said("assistant", ("reasoning", "25% of 400."), ("text", "100 DKK."))]}))
    assert [(m.role, m.channel, m.content) for m in transcript.messages] == [
        ("system", "final", "Be careful."), ("user", "final", "VAT on 400 DKK?"),
        ("assistant", "analysis", "25% of 400."), ("assistant", "final", "100 DKK.")]
    assert shown(transcript) == ["VAT on 400 DKK?", "100 DKK."] and transcript.diagnostics == ()


def test_calls_carry_no_id_so_replies_answer_them_in_order_a_list_of_results_one_each():
    transcript = parse(json.dumps({"messages": [
        said("user", ("text", "Convert both.")),
        said("assistant", call("convert", amount=50), call("convert", amount=75)),
        said("tool", ("text", json.dumps([{"amount": 344.1}, {"amount": 516.15}]))),
        said("assistant", ("text", "Done."))]}))
    calls = [m for m in transcript.messages if m.is_call]
    replies = [m for m in transcript.messages if m.is_reply]
    assert [json.loads(m.content) for m in calls] == [{"amount": 50}, {"amount": 75}]
    assert [(m.name, json.loads(m.content)) for m in replies] == [
        ("functions.convert", {"amount": 344.1}), ("functions.convert", {"amount": 516.15})]
    assert [(pair.call, pair.reply) for pair in transcript.pairs] == [(1, 3), (2, 4)]


def test_tools_written_as_json_text_are_declared_and_kept_with_their_descriptions():
    tools = [{"type": "function", "function": {"name": "get_vat_rate", "description": "The standard VAT rate.",
                                               "parameters": {"type": "object"}}}]
    transcript = parse(json.dumps({"messages": [said("user", ("text", "Hi"))], "tools": json.dumps(tools)}))
    assert transcript.tools == {"functions.get_vat_rate": {"type": "object"}}
    assert transcript.header["tools"] == tools


def test_loss_weights_are_kept_by_turn_and_media_are_named_never_fetched():
    transcript = parse(json.dumps({"messages": [
        said("user", ("image_url", "data/receipts/0412.jpg"), ("text", "Which shop?"), loss_weight=0.0),
        said("assistant", ("text", "Irma."), loss_weight=1.0)]}))
    assert transcript.messages[0].content == "[image: data/receipts/0412.jpg]\nWhich shop?"
    assert transcript.header["per_turn"] == [{"turn": 0, "loss_weight": 0.0}, {"turn": 1, "loss_weight": 1.0}]


def test_a_part_of_an_unknown_type_and_a_call_that_is_no_json_are_reported_and_hidden():
    transcript = parse(json.dumps({"messages": [
        said("user", ("text", "Hi")), said("assistant", ("audio_clip", "a.wav"), ("tool_call", "not json"))]}))
    assert codes(transcript)[:2] == ["W-JSON-UNKNOWN-PART", "W-JSON-SHAPE"]
    assert shown(transcript) == ["Hi"]


def test_a_preference_row_reads_its_shared_prompt_once_then_each_answer_marked():
    prompt = [said("system", ("text", "Danish tax.")), said("user", ("text", "Do I charge VAT?"))]
    transcript = parse(json.dumps({
        "chosen_messages": [*prompt, said("assistant", ("reasoning", "Under the threshold."), ("text", "No."))],
        "rejected_messages": [*prompt, said("assistant", ("text", "Yes, always."))]}))
    assert [(m.intent, m.channel, m.content) for m in transcript.messages] == [
        (None, "final", "Danish tax."), (None, "final", "Do I charge VAT?"),
        ("chosen", "analysis", "Under the threshold."), ("chosen", "final", "No."),
        ("rejected", "final", "Yes, always.")]
    assert shown(transcript) == ["Do I charge VAT?", "No."]


def test_the_samples_read_with_every_call_paired_and_nothing_unread():
    for name in ("json-llamafactory-v1-reason-tool-use.jsonl", "json-preference-llamafactory-v1-dpo.jsonl"):
        transcript = parse((SAMPLES / name).read_bytes())
        for conversation in transcript.conversations:
            calls = sum(message.is_call for message in conversation.messages)
            assert len(conversation.pairs) == calls, name
            assert not {"W-JSON-UNREAD", "W-JSON-CONTENT-PART", "W-UNANSWERED-CALL"} & set(codes(conversation))

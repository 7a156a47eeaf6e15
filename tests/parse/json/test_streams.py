"""Streamed answers (viewer/parse/json/completion_chunks.py, gemini_chunks.py, and the server-sent events that
container.py reads): the chunks of one answer are one message per choice or candidate, as if unstreamed."""
from __future__ import annotations

import json

from tests.parse.helpers import assert_accounted_for, codes, only
from viewer.parse import detect, parse
from viewer.policy.projection import SHOWN_IN_FULL, Projection


def summary(transcript) -> list[tuple]:
    return [(m.role, m.channel, m.recipient, m.content, m.end) for m in transcript.messages]


def shown(transcript) -> list[str]:
    return [m.content for m, d in zip(transcript.messages, Projection.of(transcript).decisions())
            if d.show_as in SHOWN_IN_FULL]


def chunk(delta: dict, finish: str | None = None, index: int = 0, id: str = "chatcmpl-1") -> dict:
    return {"id": id, "object": "chat.completion.chunk", "created": 1, "model": "m",
            "choices": [{"index": index, "delta": delta, "logprobs": None, "finish_reason": finish}]}


def sse(values: list[dict], done: bool = True) -> str:
    return "".join(f"data: {json.dumps(value)}\n\n" for value in values) + ("data: [DONE]\n\n" if done else "")


ANSWER = [chunk({"role": "assistant", "content": ""}), chunk({"reasoning_content": "Soft: 6 "}),
          chunk({"reasoning_content": "min."}), chunk({"content": "Boil it "}), chunk({"content": "6 minutes."}),
          chunk({}, "stop"), {"id": "chatcmpl-1", "object": "chat.completion.chunk", "choices": [],
                              "usage": {"total_tokens": 9}}]


# -- Chat Completions chunks ------------------------------------------------------------------------------------

def test_server_sent_chunks_are_detected_as_json_and_add_up_to_one_answer():
    text = ": keep-alive\n\n" + sse(ANSWER)
    assert detect(text) == "json"
    transcript = parse(text)
    assert summary(transcript) == [("assistant", "analysis", None, "Soft: 6 min.", "end"),
                                   ("assistant", "final", None, "Boil it 6 minutes.", "end")]
    assert {m.turn for m in transcript.messages} == {0}
    assert shown(transcript) == ["Boil it 6 minutes."]
    assert not transcript.diagnostics
    assert_accounted_for(transcript, text)


def test_chunks_as_json_lines_read_as_the_same_answer():
    text = "".join(json.dumps(value) + "\n" for value in ANSWER)
    assert summary(parse(text)) == summary(parse(sse(ANSWER)))


def test_each_tool_call_s_argument_fragments_are_joined_by_index_with_the_id_and_name_of_its_first():
    text = sse([chunk({"role": "assistant", "tool_calls": [
                    {"index": 0, "id": "c0", "type": "function", "function": {"name": "f", "arguments": ""}}]}),
                chunk({"tool_calls": [{"index": 1, "id": "c1", "type": "function",
                                       "function": {"name": "g", "arguments": '{"b"'}}]}),
                chunk({"tool_calls": [{"index": 0, "function": {"arguments": '{"a": 1}'}}]}),
                chunk({"tool_calls": [{"index": 1, "function": {"arguments": ": 2}"}}]}),
                chunk({}, "tool_calls")])
    transcript = parse(text)
    assert [(m.recipient, m.call_id, m.content, m.end) for m in transcript.messages] == [
        ("functions.f", "c0", '{"a": 1}', "call"), ("functions.g", "c1", '{"b": 2}', "call")]
    assert_accounted_for(transcript, text)


def test_each_choice_of_a_streamed_completion_is_its_own_message():
    transcript = parse(sse([chunk({"role": "assistant", "content": "A"}, index=0),
                            chunk({"role": "assistant", "content": "B"}, index=1),
                            chunk({"content": "a"}, "stop", index=0), chunk({"content": "b"}, "stop", index=1)]))
    assert [(m.content, m.turn) for m in transcript.messages] == [("Aa", 0), ("Bb", 0)]  # one answer: one turn


def test_completions_with_another_id_are_other_answers():
    transcript = parse(sse([chunk({"content": "One"}, "stop", id="x"), chunk({"content": "Two"}, "stop", id="y")]))
    assert [(m.content, m.turn) for m in transcript.messages] == [("One", 0), ("Two", 1)]


def test_a_stream_without_a_finish_reason_is_cut_short_and_a_broken_event_is_reported():
    text = sse(ANSWER[:4], done=False) + 'data: {"id": "chatcmpl-1", "choi\n'
    transcript = parse(text)
    assert [m.end for m in transcript.messages] == ["eof", "eof"]
    assert codes(transcript) == ["E-STREAM-TRUNCATED", "W-JSON-SYNTAX"]
    assert_accounted_for(transcript, text)


def test_a_stream_cut_after_data_and_a_blank_keeps_the_empty_field_as_frame():
    chunk = {"id": "c", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {"content": "x"}}]}
    text = f"data: {json.dumps(chunk)}\n\ndata: "
    transcript = parse(text)
    assert codes(transcript) == ["E-STREAM-TRUNCATED"]
    assert transcript.frame[-1].text == "data:"
    assert_accounted_for(transcript, text)


def test_a_line_that_is_no_field_of_an_event_stream_is_reported():
    text = sse(ANSWER) + "HTTP/1.1 200 OK\n"
    transcript = parse(text)
    assert "not a field of a server-sent event stream" in only(transcript, "W-JSON-SYNTAX").message
    assert_accounted_for(transcript, text)


def test_an_event_log_sent_as_server_sent_events_is_not_read_as_chat_json():
    assert detect('event: response.output_text.delta\ndata: {"type": "response.output_text.delta"}\n') != "json"


# -- Gemini chunks --------------------------------------------------------------------------------------------

def gemini(parts: list[dict], finish: str | None = None, index: int = 0) -> dict:
    candidate = {"content": {"parts": parts, "role": "model"}, "index": index}
    return {"candidates": [{**candidate, "finishReason": finish} if finish else candidate],
            "modelVersion": "gemini-2.5-flash", "responseId": "r1"}


STREAM = [gemini([{"text": "Think ", "thought": True}]), gemini([{"text": "more.", "thought": True}]),
          gemini([{"text": "It is "}]), gemini([{"text": "sunny."}]),
          gemini([{"functionCall": {"name": "weather", "args": {"city": "Oslo"}}, "thoughtSignature": "U0lH"}],
                 "STOP")]


def test_a_gemini_stream_array_is_one_answer_its_text_runs_joined_by_kind():
    text = json.dumps(STREAM, indent=1)
    transcript = parse(text)
    assert not transcript.conversations
    assert summary(transcript) == [("assistant", "analysis", None, "Think more.", "end"),
                                   ("assistant", "final", None, "It is sunny.", "end"),
                                   ("assistant", "commentary", "functions.weather", '{"city": "Oslo"}', "call")]
    assert "W-JSON-OPAQUE-DATA" in codes(transcript)
    assert "U0lH" not in "".join(m.content for m in transcript.messages)
    assert_accounted_for(transcript, text)


def test_a_gemini_stream_as_server_sent_events_or_json_lines_reads_the_same():
    array = summary(parse(json.dumps(STREAM)))
    assert summary(parse("".join(f"data: {json.dumps(c)}\r\n\r\n" for c in STREAM))) == array
    lines = parse("".join(json.dumps(c) + "\n" for c in STREAM))
    assert not lines.conversations and summary(lines) == array


def test_two_signed_text_chunks_stay_two_parts_each_with_its_signature():
    transcript = parse(json.dumps([gemini([{"text": "A", "thoughtSignature": "eA=="}]),
                                   gemini([{"text": "B", "thoughtSignature": "eQ=="}], "STOP")]))
    assert [m.content for m in transcript.messages] == ["AB"]  # text parts side by side are one answer
    assert codes(transcript).count("W-JSON-OPAQUE-DATA") == 2


def test_a_gemini_stream_without_a_finish_reason_is_cut_short():
    transcript = parse("".join(json.dumps(c) + "\n" for c in STREAM[:3]))
    assert [m.end for m in transcript.messages] == ["eof", "eof"]
    assert "E-STREAM-TRUNCATED" in codes(transcript)


def test_whole_gemini_responses_one_per_line_stay_a_dataset():
    text = "".join(json.dumps(gemini([{"text": word}], "STOP")) + "\n" for word in ("One", "Two"))
    assert [c.messages[0].content for c in parse(text).conversations] == ["One", "Two"]


def test_chunks_of_the_wrong_shape_are_reported_and_kept_in_the_source():
    text = sse([chunk({"content": "Hi"}), {"id": "chatcmpl-1", "object": "chat.completion.chunk", "choices": {}},
                {"id": "chatcmpl-1", "object": "chat.completion.chunk", "choices": [{"delta": "x"}]},
                chunk({}, "stop")])
    transcript = parse(text)
    assert [m.content for m in transcript.messages] == ["Hi"]
    assert codes(transcript) == ["W-JSON-SHAPE", "W-JSON-SHAPE"]
    assert_accounted_for(transcript, text)
    gemini_text = json.dumps([gemini([{"text": "A"}]), {"candidates": [3, {"content": "x"}]}, gemini([], "STOP")])
    assert codes(parse(gemini_text)) == ["W-JSON-SHAPE", "W-JSON-SHAPE"]


# -- What the chunks say about the answer (stream_meta.py) --------------------------------------------------------

def test_a_streamed_completion_s_model_id_finish_reason_and_usage_are_its_messages_meta():
    usage = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "choices": [],
             "usage": {"prompt_tokens": 20, "completion_tokens": 7, "prompt_tokens_details": {"cached_tokens": 5}}}
    transcript = parse(sse([*ANSWER[:6], usage]))
    metas = [m.meta for m in transcript.messages]
    assert {(meta.model, meta.response, meta.stop_reason) for meta in metas} == {("m", "chatcmpl-1", "stop")}
    assert [meta.usage for meta in metas[:-1]] == [None]
    assert (metas[-1].usage.input, metas[-1].usage.output, metas[-1].usage.cache_read) == (15, 7, 5)


def test_the_usage_of_a_completion_of_two_choices_is_on_the_last_choice_only():
    text = sse([chunk({"content": "A"}, "stop"), chunk({"content": "B"}, "length", index=1),
                {"id": "chatcmpl-1", "object": "chat.completion.chunk", "choices": [],
                 "usage": {"prompt_tokens": 3, "completion_tokens": 2}}])
    first, second = parse(text).messages
    assert (first.meta.stop_reason, first.meta.usage) == ("stop", None)
    assert (second.meta.stop_reason, second.meta.usage.output) == ("length", 2)


def test_an_ollama_stream_s_model_time_reason_and_counts_are_its_answer_s_meta():
    lines = [{"model": "qwen3:8b", "created_at": "2025-11-26T19:41:0%d.000Z" % n,
              "message": {"role": "assistant", "content": word}, "done": False} for n, word in enumerate(["A ", "B"])]
    lines.append({"model": "qwen3:8b", "created_at": "2025-11-26T19:41:09.000Z", "message": {"role": "assistant",
                  "content": ""}, "done": True, "done_reason": "stop", "prompt_eval_count": 12, "eval_count": 2})
    (message,) = parse("".join(json.dumps(line) + "\n" for line in lines)).messages
    assert (message.meta.model, message.meta.timestamp, message.meta.stop_reason) == \
        ("qwen3:8b", "2025-11-26T19:41:09.000Z", "stop")
    assert (message.meta.usage.input, message.meta.usage.output) == (12, 2)


def test_a_gemini_stream_s_model_response_reason_and_usage_are_its_messages_meta():
    chunks = [{"candidates": [{"content": {"role": "model", "parts": [{"text": "Hi"}]}, "index": 0}],
               "modelVersion": "gemini-2.5-flash", "responseId": "r1"},
              {"candidates": [{"content": {"role": "model", "parts": [{"text": "!"}]}, "index": 0,
                               "finishReason": "STOP"}], "modelVersion": "gemini-2.5-flash", "responseId": "r1",
               "usageMetadata": {"promptTokenCount": 10, "cachedContentTokenCount": 4, "candidatesTokenCount": 3,
                                 "thoughtsTokenCount": 5, "totalTokenCount": 18}}]
    (message,) = parse(json.dumps(chunks)).messages
    assert (message.meta.model, message.meta.response, message.meta.stop_reason) == ("gemini-2.5-flash", "r1", "STOP")
    usage = message.meta.usage
    assert (usage.input, usage.output, usage.cache_read) == (6, 8, 4)


def test_a_stream_that_says_nothing_about_itself_has_no_meta():
    text = "".join(json.dumps({"message": {"role": "assistant", "content": w}, "done": d}) + "\n"
                   for w, d in (("A", False), ("B", True)))
    assert [m.meta for m in parse(text).messages] == [None]

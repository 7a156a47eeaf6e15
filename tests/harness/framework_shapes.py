"""Generated inputs of the frameworks' and evaluation tools' JSON shapes, of a chosen size, for bench/parse.py:
an OpenTelemetry trace per line (OTLP JSON), an Inspect AI log and its .eval archive, LangChain's
`messages_to_dict` and `dumpd` lists, and Vercel AI SDK v5 UI messages. Each repeats one tool-using exchange
with varied text, as the real producers write it."""
from __future__ import annotations

import io
import json
import random
import zipfile
from typing import Callable, Iterator

WORDS = ("the", "weather", "forecast", "tomorrow", "rain", "umbrella", "city", "train", "ticket", "price", "order",
         "shipped", "invoice", "refund", "calculate", "result", "summary", "note", "kitchen", "lemons")


def _text(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(words)).capitalize() + "."


def _exchanges(seed: int) -> Iterator[tuple[int, str, str, str, str, str]]:
    """(number, question, reasoning, arguments, reply, answer) without end."""
    rng = random.Random(seed)
    number = 0
    while True:
        yield (number, _text(rng, 12), _text(rng, 40), json.dumps({"q": _text(rng, 5)}), _text(rng, 30),
               _text(rng, 60))
        number += 1


def _until(megabytes: float, pieces: Iterator[str]) -> list[str]:
    limit, size, kept = int(megabytes * 1_000_000), 0, []
    for piece in pieces:
        kept.append(piece)
        size += len(piece)
        if size >= limit:
            return kept
    return kept


def otel_lines(megabytes: float, seed: int = 7) -> str:
    """OTLP JSON lines, one trace of two chat spans and an execute_tool span per line."""
    def lines() -> Iterator[str]:
        for number, question, reasoning, arguments, reply, answer in _exchanges(seed):
            user = {"role": "user", "parts": [{"type": "text", "content": question}]}
            call = {"role": "assistant", "parts": [{"type": "reasoning", "content": reasoning}, {
                "type": "tool_call", "id": f"c{number}", "name": "lookup", "arguments": json.loads(arguments)}]}
            tool_reply = {"role": "tool", "parts": [{"type": "tool_call_response", "id": f"c{number}",
                                                     "response": reply}]}
            final = {"role": "assistant", "parts": [{"type": "text", "content": answer}]}
            spans = [({"gen_ai.operation.name": "chat", "gen_ai.input.messages": json.dumps([user]),
                       "gen_ai.output.messages": json.dumps([call])}),
                     ({"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "lookup",
                       "gen_ai.tool.call.id": f"c{number}", "gen_ai.tool.call.result": reply}),
                     ({"gen_ai.operation.name": "chat", "gen_ai.input.messages": json.dumps([user, call, tool_reply]),
                       "gen_ai.output.messages": json.dumps([final])})]
            written = [{"traceId": f"{number:032x}", "spanId": f"{number * 3 + at:016x}", "name": "chat",
                        "startTimeUnixNano": str((number * 3 + at) * 1000),
                        "attributes": [{"key": key, "value": {"stringValue": value}} for key, value in span.items()]}
                       for at, span in enumerate(spans)]
            yield json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": written}]}]}) + "\n"
    return "".join(_until(megabytes, lines()))


def _inspect_samples(megabytes: float, seed: int) -> list[str]:
    def samples() -> Iterator[str]:
        for number, question, reasoning, arguments, reply, answer in _exchanges(seed):
            messages = [{"id": f"u{number}", "role": "user", "content": question, "source": "input"},
                        {"id": f"a{number}", "role": "assistant", "source": "generate", "content": [
                            {"type": "reasoning", "reasoning": reasoning, "signature": "S" * 40}],
                         "tool_calls": [{"id": f"c{number}", "function": "lookup",
                                         "arguments": json.loads(arguments), "type": "function"}]},
                        {"id": f"t{number}", "role": "tool", "content": reply, "tool_call_id": f"c{number}",
                         "function": "lookup"},
                        {"id": f"b{number}", "role": "assistant", "content": answer, "source": "generate"}]
            yield json.dumps({"id": number + 1, "epoch": 1, "input": question, "target": "x", "messages": messages,
                              "scores": {"match": {"value": "C", "answer": "x"}}, "metadata": {}})
    return _until(megabytes, samples())


def inspect_log(megabytes: float, seed: int = 7) -> str:
    return ('{"version": 2, "status": "success", "eval": {"task": "bench", "model": "m"},\n"samples": [\n'
            + ",\n".join(_inspect_samples(megabytes, seed)) + '\n],\n"results": {"total_samples": 0}}\n')


def inspect_archive(megabytes: float, seed: int = 7) -> bytes:
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        archive.writestr("header.json", json.dumps({"version": 2, "status": "success", "eval": {"task": "bench"}}))
        for number, sample in enumerate(_inspect_samples(megabytes, seed)):
            archive.writestr(f"samples/{number + 1}_epoch_1.json", sample)
    return data.getvalue()


def _messages(megabytes: float, seed: int, write: Callable[[int, str, str, str, str, str], list[dict]]) -> str:
    def elements() -> Iterator[str]:
        for exchange in _exchanges(seed):
            for element in write(*exchange):
                yield json.dumps(element)
    return "[\n" + ",\n".join(_until(megabytes, elements())) + "\n]\n"


def _langchain(number: int, question: str, reasoning: str, arguments: str, reply: str,
               answer: str) -> list[tuple[str, dict]]:
    return [("human", {"content": question, "type": "human", "id": f"h{number}"}),
            ("ai", {"content": "", "type": "ai", "id": f"a{number}",
                    "additional_kwargs": {"reasoning_content": reasoning},
                    "tool_calls": [{"name": "lookup", "args": json.loads(arguments), "id": f"c{number}",
                                    "type": "tool_call"}]}),
            ("tool", {"content": reply, "type": "tool", "tool_call_id": f"c{number}", "name": "lookup"}),
            ("ai", {"content": answer, "type": "ai", "id": f"b{number}"})]


def langchain_dicts(megabytes: float, seed: int = 7) -> str:
    return _messages(megabytes, seed, lambda *exchange: [{"type": kind, "data": data}
                                                         for kind, data in _langchain(*exchange)])


CLASSES = {"human": "HumanMessage", "ai": "AIMessage", "tool": "ToolMessage"}


def langchain_dumpd(megabytes: float, seed: int = 7) -> str:
    return _messages(megabytes, seed, lambda *exchange: [
        {"lc": 1, "type": "constructor", "id": ["langchain", "schema", "messages", CLASSES[kind]], "kwargs": data}
        for kind, data in _langchain(*exchange)])


def ai_sdk_messages(megabytes: float, seed: int = 7) -> str:
    def write(number: int, question: str, reasoning: str, arguments: str, reply: str, answer: str) -> list[dict]:
        return [{"id": f"u{number}", "role": "user", "parts": [{"type": "text", "text": question}]},
                {"id": f"a{number}", "role": "assistant", "parts": [
                    {"type": "step-start"}, {"type": "reasoning", "text": reasoning, "state": "done"},
                    {"type": "tool-lookup", "toolCallId": f"c{number}", "state": "output-available",
                     "input": json.loads(arguments), "output": reply},
                    {"type": "step-start"}, {"type": "text", "text": answer, "state": "done"}]}]
    return _messages(megabytes, seed, write)


SHAPES: dict[str, Callable[[float], str | bytes]] = {
    "otel (OTLP JSON lines)": otel_lines, "inspect log": inspect_log, "inspect .eval": inspect_archive,
    "langchain messages_to_dict": langchain_dicts, "langchain dumpd": langchain_dumpd,
    "ai sdk v5": ai_sdk_messages}

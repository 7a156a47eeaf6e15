"""Parse benchmark: a generated Harmony transcript (≥ 30 MB, ≥ 100k messages) through the Harmony parser.

Run: `.venv/bin/python bench/parse.py [--megabytes 30]`. Prints the input's size and message count, the parse
time (best of 3), throughput, peak memory while parsing (tracemalloc, a separate run because tracing slows
Python down), and the time of one `re.finditer` pass over the control tokens of the same text, which is the
yardstick of the targets: parse ≤ 5× that pass, ≥ 100 MB/s, peak memory ≤ 10× the input.
"""
from __future__ import annotations

import argparse
import gc
import random
import time
import tracemalloc

from viewer.parse import parse
from viewer.parse.harmony import parse_harmony
from viewer.parse.options import ParseOptions
from viewer.parse.tokens import TOKEN_RE

SYSTEM = ("<|start|>system<|message|>You are ChatGPT, a large language model trained by OpenAI.\n"
          "Knowledge cutoff: 2024-06\nCurrent date: 2025-08-{day:02d}\n\nReasoning: {effort}\n\n"
          "# Valid channels: analysis, commentary, final. Channel must be included for every message.\n"
          "Calls to these tools must go to the commentary channel: 'functions'.<|end|>")
DEVELOPER = ("<|start|>developer<|message|># Instructions\n\nAnswer briefly and cite the tool you used.\n\n"
             "# Tools\n\n## functions\n\nnamespace functions {\n\n// Gets the current weather for a city.\n"
             "type get_weather = (_: {\n// City and country, e.g. \"Paris, FR\"\nlocation: string,\n"
             "unit?: \"celsius\" | \"fahrenheit\", // default: celsius\n}) => any;\n\n"
             "// Searches the product catalogue.\ntype search_catalogue = (_: {\nquery: string,\n"
             "limit?: number,\n}) => any;\n\n} // namespace functions<|end|>")
CITIES = ["Tokyo", "Paris", "Lagos", "Lima", "Oslo", "Hanoi", "Quito", "Perth", "Cairo", "Denver", "Zürich"]
WORDS = ("the a forecast humidity wind pressure front rain cloud sunny cold warm mild breeze dry wet storm "
         "front coast inland morning evening night weekend week trend average record station sensor model "
         "update data source result query catalogue item price stock order review rating size colour").split()
TOOL_SHAPES = [  # the header shapes of HARMONY.md, all the same call
    "<|start|>assistant to=functions.{tool}<|channel|>commentary json<|message|>",
    "<|start|>assistant to=functions.{tool}<|channel|>commentary <|constrain|>json<|message|>",
    "<|start|>assistant<|channel|>commentary to=functions.{tool} <|constrain|>json<|message|>",
    "<|start|>assistant<|channel|>commentary to=functions.{tool}<|constrain|>json<|message|>",
    "<|start|>assistant to=functions.{tool} call_id={call_id}<|channel|>commentary<|constrain|>json<|message|>",
]


class Generator:
    """Deterministic: the same seed gives the same text."""

    def __init__(self, seed: int = 7) -> None:
        self.random = random.Random(seed)
        self.calls = 0

    def sentence(self, low: int = 6, high: int = 18) -> str:
        words = self.random.choices(WORDS, k=self.random.randint(low, high))
        return " ".join(words).capitalize() + "."

    def paragraph(self, sentences: int) -> str:
        return " ".join(self.sentence() for _ in range(sentences))

    def final_answer(self, city: str, temperature: int) -> str:
        kind = self.random.random()
        if kind < 0.3:
            return (f"## Weather in {city}\n\n- **Now:** {temperature} °C\n- **Trend:** {self.sentence(4, 8)}\n\n"
                    f"{self.paragraph(3)}")
        if kind < 0.5:
            return (f"Here is how to fetch it yourself:\n\n```python\nimport requests\n\n"
                    f"reply = requests.get(\"https://api.example.com/weather\", params={{\"q\": \"{city}\"}})\n"
                    f"print(reply.json()[\"temperature\"])  # {temperature}\n```\n\n{self.sentence()}")
        return f"It is {temperature} °C in {city}. {self.paragraph(self.random.randint(2, 5))}"

    def call(self, tool: str, arguments: str) -> tuple[str, str | None]:
        self.calls += 1
        shape = self.random.choice(TOOL_SHAPES)
        call_id = f"call_{self.calls:07d}" if "{call_id}" in shape else None
        return shape.format(tool=tool, call_id=call_id) + arguments + "<|call|>", call_id

    def reply(self, tool: str, call_id: str | None, body: str) -> str:
        if call_id:
            return f"<|start|>tool name=functions.{tool} call_id={call_id} to=assistant<|channel|>commentary<|message|>{body}<|end|>"
        return f"<|start|>functions.{tool} to=assistant<|channel|>commentary<|message|>{body}<|end|>"

    def exchange(self) -> list[str]:
        """One user question and the assistant's work on it: analysis, maybe a preamble, calls, the answer."""
        pick = self.random
        city = pick.choice(CITIES)
        temperature = pick.randint(-10, 38)
        parts = [f"<|start|>user<|message|>What's the weather in {city}? {self.sentence(5, 12)}<|end|>",
                 f"<|start|>assistant<|channel|>analysis<|message|>{self.paragraph(pick.randint(2, 6))}<|end|>"]
        if pick.random() < 0.2:
            parts.append(f"<|start|>assistant<|channel|>commentary<|message|>**Plan:** {self.sentence()}<|end|>")
        for _ in range(pick.choice((0, 1, 1, 2))):
            call, call_id = self.call("get_weather", f'{{"location":"{city}","unit":"celsius"}}')
            parts.append(call)
            parts.append(self.reply("get_weather", call_id,
                                    f'{{"ok":true,"content":{{"temperature":{temperature},"sky":"{pick.choice(WORDS)}"}}}}'))
        parts.append(f"<|start|>assistant<|channel|>final<|message|>{self.final_answer(city, temperature)}"
                     + pick.choice(("<|end|>", "<|return|>")))
        return parts

    def transcript(self, megabytes: float, messages: int) -> str:
        chunks: list[str] = []
        size = count = 0
        day = 0
        while size < megabytes * 1_000_000 or count < messages:
            day += 1
            conversation = [SYSTEM.format(day=day % 28 + 1, effort=self.random.choice(("low", "medium", "high"))),
                            DEVELOPER]
            for _ in range(self.random.randint(2, 6)):
                conversation.extend(self.exchange())
            separator = self.random.choice(("", "\n"))  # the reference renderer writes none; the spec, newlines
            text = separator.join(conversation) + separator
            chunks.append(text)
            size += len(text.encode("utf-8"))
            count += len(conversation)
        return "".join(chunks)


def best_of(runs: int, *functions) -> list[tuple[float, object]]:
    """Best time and last result of each function. The runs alternate between the functions so that both
    see the same load on a shared machine, which keeps their ratio honest."""
    best = [float("inf")] * len(functions)
    results: list[object] = [None] * len(functions)
    for _ in range(runs):
        for which, function in enumerate(functions):
            results[which] = None
            gc.collect()
            started = time.perf_counter()
            results[which] = function()
            best[which] = min(best[which], time.perf_counter() - started)
    return list(zip(best, results))


def regex_pass(text: str) -> int:
    count = 0
    for _ in TOKEN_RE.finditer(text):
        count += 1
    return count


def peak_memory(function) -> int:
    gc.collect()
    tracemalloc.start()
    try:
        function()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def main() -> None:
    arguments = argparse.ArgumentParser(description=__doc__)
    arguments.add_argument("--megabytes", type=float, default=30.0)
    arguments.add_argument("--messages", type=int, default=100_000)
    options = arguments.parse_args()

    started = time.perf_counter()
    text = Generator().transcript(options.megabytes, options.messages)
    generated = time.perf_counter() - started
    size = len(text.encode("utf-8"))
    megabytes = size / 1_000_000

    (regex_time, tokens), (parse_time, transcript) = best_of(
        3, lambda: regex_pass(text), lambda: parse_harmony(text, ParseOptions()))
    ((full_time, full),) = best_of(1, lambda: parse(text))
    memory = peak_memory(lambda: parse_harmony(text, ParseOptions()))
    count = len(transcript.messages)

    rows = [
        ("input", f"{megabytes:.1f} MB", f"{count:,} messages, {tokens:,} control tokens (generated in {generated:.1f} s)"),
        ("re.finditer pass", f"{regex_time * 1000:.0f} ms", f"{megabytes / regex_time:.0f} MB/s"),
        ("parse_harmony (best of 3)", f"{parse_time * 1000:.0f} ms",
         f"{megabytes / parse_time:.0f} MB/s, {count / parse_time:,.0f} messages/s"),
        ("ratio parse / regex", f"{parse_time / regex_time:.2f}x", "target <= 5x"),
        ("peak memory in parse", f"{memory / 1_000_000:.0f} MB", f"{memory / size:.2f}x the input, target <= 10x"),
        ("full parse() (+checks, pairing)", f"{full_time * 1000:.0f} ms",
         f"{megabytes / full_time:.0f} MB/s, {len(full.pairs):,} pairs, {len(full.diagnostics):,} diagnostics"),
        ("parser diagnostics", str(len(transcript.diagnostics)), "expected 0 on generated input"),
    ]
    width = max(len(row[0]) for row in rows)
    for label, figure, note in rows:
        print(f"{label:<{width}}  {figure:>10}  {note}")


if __name__ == "__main__":
    main()

"""Deterministic Harmony transcripts of any size, for the benchmarks and the big-transcript tests.

The same seed always gives the same text. A transcript is a run of conversations in the shape gpt-oss writes
(HARMONY.md): a system and a developer prompt, then exchanges of a user question, hidden analysis, sometimes a
preamble, tool calls with their replies, and a final answer. About one message in a thousand is long (a tool
reply or a final answer of 25,000 to 60,000 characters), as agent runs with a big file read or report have.
Messages average about 300 bytes, so 50 MB holds over 150,000 of them.

    from tests.harness.gen import generate
    text = generate(megabytes=10)          # at least 10 MB
    text = generate(messages=100_000)      # at least 100,000 messages
"""
from __future__ import annotations

import random

SYSTEM = ("<|start|>system<|message|>You are ChatGPT, a large language model trained by OpenAI.\n"
          "Knowledge cutoff: 2024-06\nCurrent date: 2025-08-{day:02d}\n\nReasoning: {effort}\n\n"
          "# Valid channels: analysis, commentary, final. Channel must be included for every message.\n"
          "Calls to these tools must go to the commentary channel: 'functions'.<|end|>")
DEVELOPER = ("<|start|>developer<|message|># Instructions\n\nAnswer briefly and cite the tool you used.\n\n"
             "# Tools\n\n## functions\n\nnamespace functions {\n\n// Gets the current weather for a city.\n"
             "type get_weather = (_: {\n// City and country, e.g. \"Paris, FR\"\nlocation: string,\n"
             "unit?: \"celsius\" | \"fahrenheit\", // default: celsius\n}) => any;\n\n} // namespace functions<|end|>")
CITIES = ("Tokyo", "Paris", "Lagos", "Lima", "Oslo", "Hanoi", "Quito", "Perth", "Cairo", "Denver", "Zürich")
WORDS = ("the a forecast humidity wind pressure front rain cloud sunny cold warm mild breeze dry wet storm coast "
         "inland morning evening night weekend week trend average record station sensor model update data "
         "source result query — item price stock order review rating").split()
TOOL_SHAPES = (  # the header shapes of HARMONY.md, all the same call
    "<|start|>assistant to=functions.{tool}<|channel|>commentary json<|message|>",
    "<|start|>assistant to=functions.{tool}<|channel|>commentary <|constrain|>json<|message|>",
    "<|start|>assistant<|channel|>commentary to=functions.{tool} <|constrain|>json<|message|>",
    "<|start|>assistant<|channel|>commentary to=functions.{tool}<|constrain|>json<|message|>",
    "<|start|>assistant to=functions.{tool} call_id={call_id}<|channel|>commentary<|constrain|>json<|message|>",
)
REFERENCE_SHAPES = tuple(shape for shape in TOOL_SHAPES if "call_id" not in shape)
LONG_EVERY = 1000
"""On average one message in this many is long."""


class Generator:
    """Writes conversations from a seeded random source; `generate` is the way in."""

    def __init__(self, seed: int = 7, shapes: tuple[str, ...] = TOOL_SHAPES) -> None:
        self.random = random.Random(seed)
        self.shapes = shapes
        self.calls = 0

    def sentence(self, low: int = 5, high: int = 14) -> str:
        return " ".join(self.random.choices(WORDS, k=self.random.randint(low, high))).capitalize() + "."

    def paragraph(self, sentences: int) -> str:
        return " ".join(self.sentence() for _ in range(sentences))

    def long_text(self) -> str:
        """A long body: numbered paragraphs up to 25,000–60,000 characters."""
        target = self.random.randint(25_000, 60_000)
        parts, size, number = [], 0, 0
        while size < target:
            number += 1
            part = f"{number}. {self.paragraph(4)}\n\n"
            parts.append(part)
            size += len(part)
        return "".join(parts)

    def is_long(self) -> bool:
        return self.random.randrange(LONG_EVERY) == 0

    def final_answer(self, city: str, temperature: int) -> str:
        """Markdown of three kinds: a list under a heading, a code block, or plain paragraphs."""
        kind = self.random.random()
        if kind < 0.3:
            return (f"## Weather in {city}\n\n- **Now:** {temperature} °C\n- **Trend:** {self.sentence(4, 8)}\n\n"
                    f"{self.paragraph(2)}")
        if kind < 0.5:
            return (f"Here is how to fetch it yourself:\n\n```python\nimport requests\n\n"
                    f"reply = requests.get(\"https://api.example.com/weather\", params={{\"q\": \"{city}\"}})\n"
                    f"print(reply.json()[\"temperature\"])  # {temperature}\n```\n\n{self.sentence()}")
        return f"It is **{temperature} °C** in {city}. {self.paragraph(self.random.randint(1, 3))}"

    def call(self, city: str) -> tuple[str, str | None]:
        """A call in one of the header shapes real producers write; some carry a call_id."""
        self.calls += 1
        shape = self.random.choice(self.shapes)
        call_id = f"call_{self.calls:07d}" if "{call_id}" in shape else None
        arguments = f'{{"location":"{city}","unit":"celsius"}}'
        return shape.format(tool="get_weather", call_id=call_id) + arguments + "<|call|>", call_id

    def reply(self, call_id: str | None, temperature: int) -> str:
        body = self.long_text() if self.is_long() else \
            f'{{"ok":true,"content":{{"temperature":{temperature},"sky":"{self.random.choice(WORDS)}"}}}}'
        if call_id:
            return (f"<|start|>tool name=functions.get_weather call_id={call_id} to=assistant<|channel|>commentary"
                    f"<|message|>{body}<|end|>")
        return f"<|start|>functions.get_weather to=assistant<|channel|>commentary<|message|>{body}<|end|>"

    def exchange(self) -> list[str]:
        """One user question and the assistant's work on it: analysis, maybe a preamble, calls, the answer."""
        pick = self.random
        city = pick.choice(CITIES)
        temperature = pick.randint(-10, 38)
        parts = [f"<|start|>user<|message|>What's the weather in {city}? {self.sentence()}<|end|>",
                 f"<|start|>assistant<|channel|>analysis<|message|>{self.paragraph(pick.randint(1, 3))}<|end|>"]
        if pick.random() < 0.2:
            parts.append(f"<|start|>assistant<|channel|>commentary<|message|>**Plan:** {self.sentence()}<|end|>")
        for _ in range(pick.choice((0, 1, 1, 2))):
            call, call_id = self.call(city)
            parts += [call, self.reply(call_id, temperature)]
        answer = self.long_text() if self.is_long() else self.final_answer(city, temperature)
        parts.append(f"<|start|>assistant<|channel|>final<|message|>{answer}" + pick.choice(("<|end|>", "<|return|>")))
        return parts

    def conversation(self, day: int) -> list[str]:
        parts = [SYSTEM.format(day=day % 28 + 1, effort=self.random.choice(("low", "medium", "high"))), DEVELOPER]
        for _ in range(self.random.randint(3, 8)):
            parts.extend(self.exchange())
        return parts


def generate(megabytes: float = 0, messages: int = 0, seed: int = 7, *, reference: bool = False) -> str:
    """A Harmony transcript of at least `megabytes` (UTF-8) and at least `messages` messages. With `reference`,
    only what openai-harmony itself renders and reads (bench/vs_harmony.py): nothing between messages and no
    `call_id=` attribute (an OpenChatML 2.x addition its reader rejects)."""
    generator = Generator(seed, REFERENCE_SHAPES if reference else TOOL_SHAPES)
    chunks: list[str] = []
    size = count = day = 0
    while size < megabytes * 1_000_000 or count < messages:
        day += 1
        conversation = generator.conversation(day)
        # The reference renderer writes nothing between messages; the specs' examples write newlines.
        separator = "" if reference else generator.random.choice(("", "\n"))
        text = separator.join(conversation) + separator
        chunks.append(text)
        size += len(text.encode("utf-8"))
        count += len(conversation)
    return "".join(chunks)

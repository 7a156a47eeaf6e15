"""The exact text the model received: the kept messages written by the transcript's dialect's writer, then the
generation prompt that asks for the next assistant message (`<|start|>assistant` in Harmony and OpenChatML 2.2,
`<|im_start|>assistant` and a line break in ChatML). JSON and event logs go to a chat API as a list of messages,
written as OpenAI chat JSON; the server's own chat template adds the prompt there."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from viewer import formats
from viewer.context import Context
from viewer.formats import Prompt
from viewer.model import Message, Transcript
from viewer.write import TARGETS, Written
from viewer.write.harmony import MESSAGE

UNKNOWN = Prompt(target="openchatml")
"""A transcript of no known dialect is written as canonical OpenChatML, which says everything the model holds."""


@dataclass(frozen=True, slots=True)
class ExactText:
    text: str
    """The kept messages as written, then the generation prompt."""
    writer: str
    """The writer's target name (`harmony`, `openai-json` …)."""
    prompt: str
    """The generation prompt appended ("" for JSON)."""
    losses: tuple[str, ...]
    """What the writer could not express, one sentence each."""


def exact_text(context: Context, dialect: str, header: dict[str, Any] | None = None) -> ExactText:
    """What the model received before sampling `context.target`."""
    written = _written(context.kept, dialect, header)
    prompt = _prompt(dialect)
    return ExactText(text=written.text + prompt.generation, writer=prompt.target, prompt=prompt.generation,
                     losses=tuple(str(loss) for loss in written.losses))


def message_text(message: Message, dialect: str) -> str:
    """One message as the dialect's writer writes it, on its own (for counting its tokens)."""
    return _written((message,), dialect).text


def message_parts(message: Message, dialect: str) -> tuple[str, str, str]:
    """`message_text` cut into what comes before the body, the body, and what follows it. A Harmony body is
    written as received, so it is the content, and the model read it as ordinary text even where it spells a
    control token; other dialects' text is not cut (the body is "")."""
    text = message_text(message, dialect)
    body = message.content
    if not _prompt(dialect).bodies_verbatim or not body:
        return text, "", ""
    head_end = text.index(MESSAGE) + len(MESSAGE)  # a header never holds <|message|>
    return text[:head_end], body, text[head_end + len(body):]


def _written(messages: tuple[Message, ...], dialect: str, header: dict[str, Any] | None = None) -> Written:
    """The messages as the model received them: earlier messages as the dialect renders history, and Harmony
    bodies unescaped (openai-harmony renders a body as ordinary text tokens)."""
    prompt = _prompt(dialect)
    rewrite = formats.load(prompt.history) if prompt.history else None
    transcript = Transcript(dialect=dialect, source="", messages=tuple(map(rewrite, messages)) if rewrite else messages,
                            header=dict(header or {}))
    write = formats.load(prompt.write) if prompt.write else TARGETS[prompt.target]
    return write(transcript)


def _prompt(dialect: str) -> Prompt:
    record = formats.find(dialect)
    return record.prompt if record is not None else UNKNOWN

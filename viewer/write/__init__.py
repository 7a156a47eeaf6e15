"""Writing a transcript out in a dialect of choice, one module each: canonical OpenChatML 2.2 text
(openchatml.py, which says everything the model holds), raw Harmony (harmony.py), ChatML as chat templates write
it (chatml.py), OpenAI chat JSON (openai_json.py), and the raw prompts of Llama 3, Gemma, Mistral, DeepSeek and
Phi (llama3.py, gemma.py, mistral.py, deepseek.py, phi.py, sharing raw.py). `convert` picks the writer and
reports, one sentence per kind, what the target cannot express (losses.py)."""
from __future__ import annotations

from typing import Callable

from msgspec.structs import replace as replace_fields

from viewer import formats
from viewer.model import Transcript
from viewer.write.chatml import to_chatml
from viewer.write.deepseek import to_deepseek
from viewer.write.gemma import to_gemma
from viewer.write.harmony import to_harmony
from viewer.write.llama3 import to_llama3
from viewer.write.losses import Loss, Written
from viewer.write.mistral import to_mistral
from viewer.write.openai_json import to_openai_json
from viewer.write.openchatml import to_openchatml
from viewer.write.phi import to_phi

TARGETS: dict[str, Callable[[Transcript], Written]] = {
    writer.target: formats.load(writer.write) for writer in formats.writers()}
"""Each target's writer, by the name `--to` takes: the writers the format registry's records name."""
ONE_CONVERSATION = ("{target} holds one conversation: the {count:,} conversations of this dataset were written "
                    "one after another, and read back as one")


def convert(transcript: Transcript, target: str) -> Written:
    """The transcript written in `target` (a key of `TARGETS`), with what the target could not express."""
    if transcript.conversations and target != "openai-json":  # JSON Lines keep a dataset's conversations apart
        written = TARGETS[target](_joined(transcript))
        note = ONE_CONVERSATION.format(target=target, count=len(transcript.conversations))
        return Written(written.text, (Loss(note), *written.losses))
    return TARGETS[target](transcript)


def _joined(dataset: Transcript) -> Transcript:
    """A dataset's conversations as one, numbered as they will read back (so that losses name those numbers)."""
    found = [message for conversation in dataset.conversations for message in conversation.messages]
    messages = tuple(replace_fields(message, index=number) for number, message in enumerate(found))
    return Transcript(dialect=dataset.dialect, source=dataset.source, messages=messages)


__all__ = ["TARGETS", "Loss", "Written", "convert", "to_chatml", "to_deepseek", "to_gemma", "to_harmony", "to_llama3",
           "to_mistral", "to_openai_json", "to_openchatml", "to_phi"]

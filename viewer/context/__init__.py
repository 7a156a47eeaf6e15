"""What the model saw: the sampling context that produced an assistant message, by its dialect's rules for
dropping earlier chain of thought (`analysis`).

- OpenChatML 2.2 (`openchatml`): §7 "Safety" and the Harmony-compatibility item 7 "CoT handling": after a turn
  that ended with `final` (`<|return|>`), earlier `analysis` is dropped on later sampling; a turn that ended with
  `<|call|>` keeps its analysis and the call when resuming. So an `analysis` message is dropped when an assistant
  `final` message stands between it and the message sampled, and kept otherwise (it leads to calls still being
  resolved, or to the message sampled).
- Harmony (`harmony`): openai-harmony's `auto_drop_analysis` (HARMONY.md, "Dropping chain of thought"): when the
  last assistant message of the conversation rendered is on `final`, every `analysis` message before the *first*
  assistant `final` is dropped; otherwise nothing is. Only channels written in a header count (openai-harmony has
  no implied channel).
- DeepSeek (`deepseek`): its chat templates write every earlier answer without its reasoning (R1 and V3 keep
  what follows `</think>`, V3.1 likewise): analysis before the last user message is dropped; the reasoning of
  the exchange being answered (through its tool calls) is kept.
- Every other dialect (ChatML, JSON, events, and the raw prompts of Llama 3 and Gemma, which have no reasoning,
  and of Mistral, whose tokenizer writes [THINK] chunks as given) has no such rule: the model saw everything before
  the message.

Pure: messages in, a `Context` out; the web page and the writers do the rest."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from viewer import formats
from viewer.model import Message
from viewer.model.branches import Fork, aside_for, followed


class NotSampled(LookupError):
    """The message asked for is out of range, or is not an assistant message (the model did not sample it)."""


@dataclass(frozen=True, slots=True)
class Item:
    """One message before the one sampled, kept or dropped."""

    message: Message
    kept: bool
    dropped_by: DropRule | None = None


@dataclass(frozen=True, slots=True)
class Context:
    """The sampling context of message `target`: every earlier message, each kept or dropped by `rule`."""

    target: Message
    rule: DropRule
    items: tuple[Item, ...]

    @property
    def kept(self) -> tuple[Message, ...]:
        return tuple(item.message for item in self.items if item.kept)

    @property
    def dropped(self) -> tuple[Message, ...]:
        return tuple(item.message for item in self.items if not item.kept)


def rule_for(dialect: str) -> DropRule:
    """The rule of the dialect's record (`prompt.drops`); every message is kept in a transcript of no known
    dialect."""
    record = formats.find(dialect)
    return DROP_RULES[record.prompt.drops] if record is not None else EVERYTHING_RULE


def sampling_context(messages: Sequence[Message], dialect: str, index: int, forks: Sequence[Fork] = ()) -> Context:
    """The context that produced `messages[index]` (an assistant message), by `dialect`'s rule; `NotSampled`
    when there is no such message or it is not the assistant's. In a tree-shaped conversation (`forks`: a chat
    export's, an agent's), the messages of the branches that do not lead to it were never in its context."""
    if not 0 <= index < len(messages):
        raise NotSampled(f"This transcript has no message #{index}.")
    target = messages[index]
    if target.role != "assistant":
        raise NotSampled(f"Message #{index} is a {target.role} message: only the assistant's messages are sampled.")
    before = _on_its_branch(messages, index, forks)
    rule = rule_for(dialect)
    dropped = rule.dropped(before)
    items = tuple(Item(message, kept=message.index not in dropped,
                       dropped_by=rule if message.index in dropped else None) for message in before)
    return Context(target=target, rule=rule, items=items)


def _on_its_branch(messages: Sequence[Message], index: int, forks: Sequence[Fork]) -> Sequence[Message]:
    """The messages before `index` that are not on another branch than the one leading to it."""
    if not forks:
        return messages[:index]
    parents = {message.index: message.parent for message in messages}
    stored = {message.index for message in messages if message.aside}
    aside = aside_for(forks, parents, parents, chosen=index, default=followed(forks, stored))
    return [message for message in messages[:index] if message.index not in aside]


def _is_analysis(message: Message) -> bool:
    return message.role == "assistant" and message.channel == "analysis"


def _is_final(message: Message) -> bool:
    return message.role == "assistant" and message.channel == "final" and message.end != "call"


def _openchatml_dropped(before: Sequence[Message]) -> set[int]:
    """Analysis followed (before the message sampled) by a final answer: that turn ended with final."""
    dropped: set[int] = set()
    pending: list[int] = []
    for message in before:
        if _is_analysis(message):
            pending.append(message.index)
        elif _is_final(message):
            dropped.update(pending)
            pending = []
    return dropped


def _harmony_dropped(before: Sequence[Message]) -> set[int]:
    """openai-harmony's `render_conversation` with `auto_drop_analysis`: when the last assistant message is on
    the final channel, every message on the analysis channel before the first message on the final channel
    goes. Only a channel written in the header counts, as openai-harmony reads one: an assistant message with
    no `<|channel|>` is not final, and a tool's reply on analysis (the python tool's) is dropped like the call."""
    assistants = [message for message in before if message.role == "assistant"]
    if not assistants or not _written_channel(assistants[-1], "final"):
        return set()
    first_final = next(message.index for message in before if _written_channel(message, "final"))
    return {message.index for message in before
            if _written_channel(message, "analysis") and message.index < first_final}


def _written_channel(message: Message, channel: str) -> bool:
    return message.channel_explicit and message.channel == channel


def _deepseek_dropped(before: Sequence[Message]) -> set[int]:
    """DeepSeek's templates: the analysis of exchanges before the last user message."""
    last_user = max((message.index for message in before if message.role == "user"), default=-1)
    return {message.index for message in before if _is_analysis(message) and message.index < last_user}


@dataclass(frozen=True, slots=True)
class DropRule:
    """A dialect's rule for what earlier messages the model sees when sampling."""

    name: str
    """A short name, shown beside each message it drops."""
    reference: str
    """Where the rule is written."""
    summary: str
    """One sentence for a person."""
    key: str
    """How a format's record names it (`Prompt.drops`)."""
    dropped: Callable[[Sequence[Message]], set[int]]
    """The indexes of the messages before the one sampled that the model did not see."""


OPENCHATML_RULE = DropRule(
    "OpenChatML 2.2 CoT handling",
    "OpenChatML 2.2 §7 (Safety) and Harmony compatibility item 7 (CoT handling)",
    "After a turn that ended with final (<|return|>), earlier analysis is dropped on later sampling; a turn that "
    "ended with <|call|> keeps its analysis and the call when resuming.",
    "after-final", _openchatml_dropped)
HARMONY_RULE = DropRule(
    "openai-harmony auto_drop_analysis",
    "openai-harmony render_conversation_for_completion with auto_drop_analysis (HARMONY.md, "
    "\"Dropping chain of thought\")",
    "When the last assistant message before this one is on the final channel, every analysis message before the "
    "first final message is dropped; otherwise every message is kept. (vLLM drops analysis before the last final "
    "instead; this page follows the reference.)",
    "auto-drop-analysis", _harmony_dropped)
EVERYTHING_RULE = DropRule(
    "everything before it",
    "this dialect has no rule for dropping earlier messages",
    "The model saw every message before this one.",
    "everything", lambda before: set())

DEEPSEEK_RULE = DropRule(
    "DeepSeek earlier reasoning dropped",
    "the DeepSeek R1, V3 and V3.1 chat templates (tokenizer_config.json), which split an earlier answer at </think>",
    "Reasoning before the last user message is dropped; the reasoning of the exchange being answered is kept.",
    "earlier-exchanges", _deepseek_dropped)
DROP_RULES = {rule.key: rule for rule in (OPENCHATML_RULE, HARMONY_RULE, DEEPSEEK_RULE, EVERYTHING_RULE)}
"""Every rule, by the key a format's record names it with."""

"""openai-harmony's own outputs, written once as test data, so that the tests can hold our Harmony reading and
writing to the reference without openai-harmony installed (the test extras do not bring it).

Run after `pip install -e '.[bench]'` and `make setup` (the o200k vocabulary is rebuilt offline into
var/tiktoken/, nothing is downloaded):

    .venv/bin/python tests/harness/harmony_reference.py

It writes two files under tests/reference/openai-harmony/:

- `contexts.json`: conversations built with openai-harmony's Python model (system and developer messages with
  tools, several turns, preambles, tool calls and replies, named authors). For each, `log` is the conversation as
  gpt-oss's turns are logged (openai-harmony's `render_conversation` without dropping anything, each sampled
  final answer ending in `<|return|>`, the token the model stopped on), and `contexts` maps the index of every
  assistant message to openai-harmony's `render_conversation_for_completion(messages before it, assistant)`
  with `auto_drop_analysis`: what the model saw when sampling it; `tokens` maps it to that rendering's length.
- `missing_message.json`: the texts of openai-harmony's tests `test_streamable_parser_missing_message_token*`
  (tests/test_harmony.py) and `test_missing_message_token_requires_non_strict_mode` (src/tests.rs), and a few
  more of the same kind, each with the messages that the non-strict `StreamableParser` primed with the
  assistant role reads from it.
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT))

from tests.harness.harmony_conversations import CONVERSATIONS, PRIMED_TEXTS  # noqa: E402
from viewer.tokens.vocabulary import ensure  # noqa: E402

OUT = ROOT / "tests" / "reference" / "openai-harmony"
END, RETURN = "<|end|>", "<|return|>"


def load():
    """openai-harmony and its gpt-oss encoding, the vocabulary read from the rebuilt file."""
    os.environ["TIKTOKEN_ENCODINGS_BASE"] = str(ensure())
    try:
        import openai_harmony
    except ImportError:
        raise SystemExit("openai-harmony is not installed: .venv/bin/pip install -e '.[bench]'") from None
    return openai_harmony, openai_harmony.load_harmony_encoding(openai_harmony.HarmonyEncodingName.HARMONY_GPT_OSS)


def logged(harmony, encoding, messages) -> str:
    """The conversation as logged: every message rendered in full, a sampled final answer ending in
    `<|return|>`. Each message is rendered on its own with the options its conversation gives it (a system
    message names the `functions` channel rule when a developer message declares function tools), and the
    messages together must be `render_conversation`'s text."""
    keep_all = harmony.RenderConversationConfig(auto_drop_analysis=False)
    whole = encoding.decode_utf8(encoding.render_conversation(harmony.Conversation.from_messages(messages), keep_all))
    options = harmony.RenderOptions(conversation_has_function_tools=any(
        isinstance(content, harmony.DeveloperContent) and bool(content.tools) and "functions" in content.tools
        and bool(content.tools["functions"].tools) for message in messages for content in message.content))
    parts = [encoding.decode_utf8(encoding.render(message, options)) for message in messages]
    if "".join(parts) != whole:
        raise SystemExit("openai-harmony renders these messages one by one differently from the conversation")
    for index, message in enumerate(messages):
        if message.author.role == harmony.Role.ASSISTANT and message.channel == "final":
            parts[index] = parts[index].removesuffix(END) + RETURN
    return "".join(parts)


def contexts(harmony, encoding, messages) -> tuple[dict[str, str], dict[str, int]]:
    """What the model saw before each assistant message, by openai-harmony's default rendering, and how many
    tokens that was."""
    drop = harmony.RenderConversationConfig(auto_drop_analysis=True)
    seen, counts = {}, {}
    for index, message in enumerate(messages):
        if message.author.role == harmony.Role.ASSISTANT:
            conversation = harmony.Conversation.from_messages(messages[:index])
            tokens = encoding.render_conversation_for_completion(conversation, harmony.Role.ASSISTANT, drop)
            seen[str(index)], counts[str(index)] = encoding.decode_utf8(tokens), len(tokens)
    return seen, counts


def primed(harmony, encoding, text: str) -> list[dict]:
    """The messages openai-harmony's non-strict parser, primed with the assistant role, reads from `text`."""
    parser = harmony.StreamableParser(encoding, harmony.Role.ASSISTANT, strict=False)
    for token in encoding.encode(text, allowed_special="all"):
        parser.process(token)
    parser.process_eos()
    return [{"role": message.author.role.value, "name": message.author.name, "channel": message.channel,
             "recipient": message.recipient, "content_type": message.content_type,
             "content": "".join(part.text for part in message.content)} for message in parser.messages]


def main() -> None:
    harmony, encoding = load()
    version = harmony_version()
    conversations = []
    for name, build in CONVERSATIONS.items():
        messages = build(harmony)
        seen, counts = contexts(harmony, encoding, messages)
        conversations.append({"name": name, "log": logged(harmony, encoding, messages), "contexts": seen,
                              "tokens": counts})
    cases = [{"name": name, "text": text, "messages": primed(harmony, encoding, text)}
             for name, text in PRIMED_TEXTS.items()]
    OUT.mkdir(parents=True, exist_ok=True)
    for file_name, data in (("contexts.json", conversations), ("missing_message.json", cases)):
        document = {"generated_by": "tests/harness/harmony_reference.py", "openai_harmony": version, "cases": data}
        (OUT / file_name).write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(OUT / file_name, len(data), "cases")


def harmony_version() -> str:
    from importlib.metadata import version
    return version("openai-harmony")


if __name__ == "__main__":
    main()

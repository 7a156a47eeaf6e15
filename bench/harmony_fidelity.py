"""Random conversations rendered by openai-harmony, read by our `parse()` and by openai-harmony, and their
"what the model saw" text written by both: every difference is printed.

Run: `.venv/bin/python bench/harmony_fidelity.py [--conversations 300] [--seed 1]` after
`pip install -e '.[bench]'` and `make setup` (the vocabulary is rebuilt offline, as for bench/vs_harmony.py).

Each conversation is up to eight messages of every role (tools speaking as `functions.f`, `python` …), on the
three channels, an unknown one or none, with or without a recipient and a content type (bare or
`<|constrain|>`), with bodies full of what trips readers (runs of spaces, `to=` and `<|constrain|>` spelled in
the text, CRLF, emoji). openai-harmony renders it (`render_conversation`, nothing dropped); both read the text
back, and must agree on role, author name, channel, recipient, content type and text; then for every assistant
message, our context page's text must be openai-harmony's `render_conversation_for_completion`.

Left out, as openai-harmony cannot read them back itself: a content type on a message with neither channel nor
recipient (it reads the bare word as a recipient), named users and assistants (`user:alice` reads as a tool),
a tool's reply without a recipient (its name alone is an unknown role there), and `to=all` (not rendered, so the
content type that follows it has no recipient either).
"""
from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.vs_harmony import load_encoding  # noqa: E402
from viewer.context import sampling_context  # noqa: E402
from viewer.context.text import exact_text  # noqa: E402
from viewer.parse import parse  # noqa: E402

BODIES = ("Hi", "x  y", "  lead", "trail \n", "a\n\nb", "💡 ünï", '{"a": 1}', "to=x", "<|constrain|>", "a < b | c",
          "", "line\r\nbreak", "=", "json", "assistant")
TOOLS = ("functions.f", "browser.search", "python", "my_tool")
CHANNELS = ("analysis", "commentary", "final", "final", "weird")
RECIPIENTS = ("functions.get_weather", "python", "browser.open", "user")
CONTENT_TYPES = ("json", "<|constrain|>json", "code", "<|constrain|>python")


def random_message(harmony, chance: random.Random):
    """One message of a random shape that openai-harmony can render and read back."""
    roles = harmony.Role
    role = chance.choice((roles.USER, roles.ASSISTANT, roles.ASSISTANT, roles.SYSTEM, roles.DEVELOPER, roles.TOOL))
    body = chance.choice(BODIES) + chance.choice(BODIES)
    if role == roles.TOOL:
        author = harmony.Author.new(role, chance.choice(TOOLS))
        message = harmony.Message.from_author_and_content(author, body).with_recipient("assistant")
    else:
        message = harmony.Message.from_role_and_content(role, body)
        if chance.random() < .3:
            message = message.with_recipient(chance.choice(RECIPIENTS))
    if chance.random() < .7:
        message = message.with_channel(chance.choice(CHANNELS))
    if message.recipient and chance.random() < .5:
        message = message.with_content_type(chance.choice(CONTENT_TYPES))
    return message


def ours(message) -> tuple:
    content_type = message.content_type
    if content_type and message.constrained:
        content_type = f"<|constrain|>{content_type}"
    return (message.role, message.name, message.channel if message.channel_explicit else None, message.recipient,
            content_type, message.content)


def theirs(message) -> tuple:
    return (message.author.role.value, message.author.name, message.channel, message.recipient,
            message.content_type, "".join(part.text for part in message.content))


def differences(harmony, encoding, messages) -> list[str]:
    """What differs between the two readings of the rendered conversation, and between the context texts."""
    keep_all = harmony.RenderConversationConfig(auto_drop_analysis=False)
    text = encoding.decode_utf8(encoding.render_conversation(harmony.Conversation.from_messages(messages), keep_all))
    transcript = parse(text, "harmony")
    read = encoding.parse_messages_from_completion_tokens(encoding.encode(text, allowed_special="all"), None)
    mine, reference = [ours(message) for message in transcript.messages], [theirs(message) for message in read]
    if mine != reference:
        return [f"read differently: {text!r}\n  ours  {mine}\n  theirs {reference}"]
    found = []
    for message in transcript.messages:
        if message.role == "assistant":
            conversation = harmony.Conversation.from_messages(read[:message.index])
            expected = encoding.decode_utf8(encoding.render_conversation_for_completion(
                conversation, harmony.Role.ASSISTANT))
            context = sampling_context(transcript.messages, "harmony", message.index)
            written = exact_text(context, "harmony").text
            if written != expected:
                found.append(f"context of #{message.index} differs: {text!r}\n  ours  {written!r}\n"
                             f"  theirs {expected!r}")
    return found


def main() -> None:
    arguments = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arguments.add_argument("--conversations", type=int, default=300)
    arguments.add_argument("--seed", type=int, default=1)
    options = arguments.parse_args()
    import openai_harmony as harmony
    encoding = load_encoding()
    chance = random.Random(options.seed)
    found = []
    for _ in range(options.conversations):
        messages = [random_message(harmony, chance) for _ in range(chance.randint(1, 8))]
        found.extend(differences(harmony, encoding, messages))
    for difference in found:
        print(difference)
    print(f"{options.conversations} conversations (seed {options.seed}): {len(found)} differences")


if __name__ == "__main__":
    main()

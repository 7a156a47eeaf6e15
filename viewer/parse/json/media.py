"""Images, files, documents and audio in content parts, as labelled placeholders: "[image: image/png, 1,024
bytes, sha256 0f3a…]". Nothing is fetched and no data is embedded: a placeholder names a web address, a file id
or name and a media type, and counts the bytes of inline (base64) data, which itself never becomes message text.
An inline image is also decoded and named by the start of its SHA-256, with the reason when it is not shown;
the message it ends up in is given a reference to it by that name (viewer/parse/inline_media.py)."""
from __future__ import annotations

import re
from typing import Any

from viewer.parse.inline_media import cut_payload, decode_inline, name_facts

MEDIA_PARTS = {
    "image_url": "image",  # OpenAI chat: {"image_url": {"url": …}}
    "input_image": "image",  # Responses API: {"image_url": …} or {"file_id": …}
    "image": "image",  # Anthropic: {"source": {"type": "base64" | "url" | "file", …}}
    "file": "file",  # OpenAI chat: {"file": {"file_data" | "file_id", "filename"}}
    "input_file": "file",  # Responses API: {"file_data" | "file_id" | "file_url", "filename"}
    "document": "document",  # Anthropic: {"source": …, "title"}
    "input_audio": "audio",  # OpenAI chat: {"input_audio": {"data", "format"}}
    "computer_screenshot": "screenshot",  # Responses API computer_call_output
}
"""Content part types that stand for media, and the word their placeholder starts with."""
IMAGE_WORDS = ("image", "screenshot")
"""The placeholder words whose inline data is decoded as an image."""
_MEDIA_TYPE = re.compile(r"[A-Za-z0-9.+-]{1,64}/[A-Za-z0-9.+-]{1,64}")
_DATA_URL = re.compile(r"data:([^;,]{0,200})((?:;[^;,]{0,100}){0,10}),", re.IGNORECASE)
_LONGEST_ADDRESS = 300
_NAME = re.compile(r"[^\x00-\x1f\x7f\[\]]{1,200}")


def placeholder(kind: str, part: dict[str, Any]) -> str:
    """The placeholder text of a media part (`kind` is a key of MEDIA_PARTS)."""
    return worded(MEDIA_PARTS[kind], part)


def worded(word: str, part: dict[str, Any]) -> str:
    """The placeholder text of a media part, which starts with `word` (`image`, `video` …)."""
    facts: list[str] = []
    for holder in (part, *_nested(part)):
        facts.extend(_facts(holder))
    inline = _inline_image(part) if word in IMAGE_WORDS else None
    if inline is not None:
        facts.extend(name_facts(inline))
    unique = list(dict.fromkeys(fact for fact in facts if fact))
    return f"[{word}: {', '.join(unique)}]" if unique else f"[{word}]"


def _inline_image(part: dict[str, Any]):
    """The part's inline data decoded (the first base64 payload it holds), or None."""
    for holder in (part, *_nested(part)):
        for key in ("data", "url", "image_url"):
            value = holder.get(key)
            if isinstance(value, str) and (key == "data" or value.startswith("data:")):
                return decode_inline(value)
    return None


def _nested(part: dict[str, Any]) -> list[dict[str, Any]]:
    """The objects inside a part that describe its media: `source`, `image_url`, `file`, `input_audio`."""
    return [part[key] for key in ("source", "image_url", "file", "input_audio") if isinstance(part.get(key), dict)]


def _facts(holder: dict[str, Any]) -> list[str]:
    facts = [_name(holder.get("title")), _name(holder.get("filename"))]
    for key in ("url", "image_url", "file_url"):
        facts.extend(_address(holder.get(key)))
    facts.append(_media_type(holder.get("media_type")))
    facts.append(_media_type(holder.get("mime_type")))
    if isinstance(holder.get("format"), str):
        facts.append(_name(holder["format"]))
    file_id = holder.get("file_id")
    if isinstance(file_id, str):
        facts.append(f"file {_name(file_id)}")
    for key in ("data", "file_data"):
        facts.extend(_inline(holder.get(key), holder.get("type") == "text"))
    return facts


def _address(value: Any) -> list[str]:
    """A web address as written (capped); a data URL as its media type and size, never its data."""
    if not isinstance(value, str):
        return []
    data = _DATA_URL.match(value)
    if data:
        base64 = ";base64" in data.group(2).lower()
        return [_media_type(data.group(1)), _size(value[data.end():], base64)]
    if value.startswith(("https://", "http://")):
        address = value if len(value) <= _LONGEST_ADDRESS else value[:_LONGEST_ADDRESS] + "…"
        return [_name(address)]
    return []


def _inline(value: Any, text: bool) -> list[str]:
    """Inline data: a data URL, base64, or (Anthropic's text documents) plain text, counted, never shown."""
    if not isinstance(value, str):
        return []
    if value.startswith("data:"):
        return _address(value)
    return [f"{_stripped(value)[0] if _cut(value) else len(value):,} characters" if text else _size(value, True)]


def _size(data: str, base64: bool) -> str:
    if not base64:
        return f"{len(data):,} characters"
    chars, padding = _stripped(data)
    return f"{(chars - padding) * 3 // 4:,} bytes"


def _stripped(data: str) -> tuple[int, int]:
    """The length of inline data with its blank edges stripped, and how many `=` end it (two at most); a thin
    text's stand-in counts as the payload it stands for (viewer/parse/thinning.py)."""
    cut = _cut(data)
    if cut is not None:
        return cut.value_chars, cut.padding
    stripped = data.strip()
    return len(stripped), stripped.endswith("=") + stripped.endswith("==")


def _cut(data: str):
    found = cut_payload(data)
    return found[0] if found else None


def _media_type(value: Any) -> str:
    return value.lower() if isinstance(value, str) and _MEDIA_TYPE.fullmatch(value) else ""


def _name(value: Any) -> str:
    """A title, file name or id, if it is a short line of printable text (it stands inside the brackets)."""
    return value if isinstance(value, str) and _NAME.fullmatch(value) else ""


def with_images(text: str, images: list) -> str:
    """Ollama's message: its text, then a placeholder for each of its `images` (base64 data, counted)."""
    shown = [placeholder("image", {"data": image}) for image in images if isinstance(image, str)]
    return "\n".join([text, *shown] if text else shown)

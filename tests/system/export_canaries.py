"""Canary transcripts of the chat apps' exports for the leak test (tests/system/test_leaks.py): one conversation
each, with a canary in every place the default view hides (custom instructions, memory, a visually hidden
message, reasoning, tool calls and outputs, an unknown content type, the text an export flattens, extracted
attachments) and in the branches the user left (an edited question, a regenerated answer)."""
from __future__ import annotations

import json

SHOWN = ("SHOWN-QUESTION", "SHOWN-ANSWER", "SHOWN-FOLLOWUP")


def canary(dialect: str, place: str) -> str:
    return f"CANARY-{dialect}-{place}-Q7"


def _chatgpt_body(dialect: str) -> str:
    c = lambda place: canary(dialect, place)  # noqa: E731
    nodes: dict[str, dict] = {}

    def node(id, parent, role, content, *, recipient="all", name=None, hidden=False):
        message = None if role is None else {
            "id": id, "author": {"role": role, "name": name, "metadata": {}}, "create_time": 1731400000.0 + len(nodes),
            "content": content, "status": "finished_successfully", "recipient": recipient, "channel": None,
            "metadata": {"is_visually_hidden_from_conversation": True} if hidden else {"model_slug": "gpt-4o"}}
        nodes[id] = {"id": id, "message": message, "parent": parent, "children": []}
        if parent in nodes:
            nodes[parent]["children"].append(id)

    text = lambda value: {"content_type": "text", "parts": [value]}  # noqa: E731
    node("root", None, None, None)
    node("sys", "root", "system", text(c("system")), hidden=True)
    node("ctx", "sys", "user", {"content_type": "user_editable_context", "user_profile": c("profile"),
                                "user_instructions": c("instructions")}, hidden=True)
    node("mem", "ctx", "assistant", {"content_type": "model_editable_context", "model_set_context": c("memory")},
         hidden=True)
    node("edited", "mem", "user", text(c("edited")))
    node("edited-answer", "edited", "assistant", text(c("edited-answer")))
    node("q1", "mem", "user", text(SHOWN[0]))
    node("thoughts", "q1", "assistant", {"content_type": "thoughts", "thoughts": [
        {"summary": c("summary"), "content": c("thoughts"), "chunks": [], "finished": True}]})
    node("recap", "thoughts", "assistant", {"content_type": "reasoning_recap", "content": c("recap")})
    node("code", "recap", "assistant", {"content_type": "code", "language": "python", "text": c("code")},
         recipient="python")
    node("output", "code", "tool", {"content_type": "execution_output", "text": c("output")}, name="python")
    node("bio", "output", "assistant", text(c("bio")), recipient="bio")
    node("bio-reply", "bio", "tool", text(c("bio-reply")), name="bio")
    node("unknown", "bio-reply", "assistant", {"content_type": "mystery_widget", "parts": [c("unknown")]})
    node("regenerated", "unknown", "assistant", text(c("regenerated")))
    node("a1", "unknown", "assistant", text(SHOWN[1]))
    node("whisper", "a1", "user", text(c("hidden-user")), hidden=True)
    node("q2", "whisper", "user", text(SHOWN[2]))
    return json.dumps({"title": "Canaries", "create_time": 1731400000.0, "mapping": nodes, "current_node": "q2"},
                      indent=1)


def _claude_ai_body(dialect: str) -> str:
    c = lambda place: canary(dialect, place)  # noqa: E731
    root = "00000000-0000-4000-8000-000000000000"
    placeholder = "\n```\nThis block is not supported on your current device yet.\n```\n"

    def message(uuid, sender, parent, blocks, *, text=None, attachments=()):
        flat = text if text is not None else "".join(block.get("text", "") for block in blocks)
        return {"uuid": uuid, "text": flat, "content": blocks, "sender": sender, "parent_message_uuid": parent,
                "created_at": f"2025-03-02T09:00:{len(uuid):02d}.000000Z", "attachments": list(attachments),
                "files": []}

    def said(value):
        return {"type": "text", "text": value, "start_timestamp": None, "stop_timestamp": None, "citations": []}

    # The flattened `text` beside the blocks is frame: its canary is checked everywhere but is in no message.
    messages = [
        message("edited", "human", root, [said(c("edited"))]),
        message("edited-answer", "assistant", "edited", [said(c("edited-answer"))]),
        message("q1", "human", root, [said(SHOWN[0])], attachments=[
            {"file_name": "notes.txt", "file_type": "text/plain", "file_size": 10, "extracted_content": c("extracted")}]),
        message("regen", "assistant", "q1", [said(c("regenerated"))]),
        message("a1", "assistant", "q1", [
            {"type": "thinking", "thinking": c("thinking"), "start_timestamp": None, "stop_timestamp": None},
            {"type": "tool_use", "id": "toolu_1", "name": "web_search", "input": {"query": c("arguments")}},
            {"type": "tool_result", "tool_use_id": "toolu_1", "name": "web_search",
             "content": [{"type": "knowledge", "title": "t", "url": "https://example.com/", "text": c("result")}]},
            {"type": "mystery_block", "payload": c("unknown")},
            said(SHOWN[1])], text=f"CANARY-FLATTENED-COPY{placeholder}{SHOWN[1]}"),
        message("q2", "human", "a1", [said(SHOWN[2])]),
        message("placeholder", "assistant", "q2", [], text=placeholder),
    ]
    # The last answer is only the export's placeholder: the latest leaf is still that answer, never shown.
    messages[-1]["created_at"] = "2025-03-02T09:59:00.000000Z"
    return json.dumps({"uuid": "c1", "name": "Canaries", "created_at": "2025-03-02T09:00:00.000000Z",
                       "chat_messages": messages}, indent=1)


EXPORT_BUILDERS = {"chatgpt": _chatgpt_body, "claude-ai": _claude_ai_body}

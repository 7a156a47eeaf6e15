"""Cursor's chats as the editor keeps them, in its global `state.vscdb` (SQLite; `~/.config/Cursor/User/
globalStorage/` on Linux, `~/Library/Application Support/Cursor/User/globalStorage/` on macOS), read as a bundle
(viewer/bundles/database.py), dialect `cursor`.

The table `cursorDiskKV` is a key/value store of JSON values:
- `composerData:<composer>`: one chat: `name` (its title), `createdAt`, `lastUpdatedAt` (ms), `status` (`aborted`
  when the user stopped it), `modelConfig.modelName`, `fullConversationHeadersOnly` (its bubbles in order; the
  oldest chats keep them inline in `conversation`), `subComposerIds` (its sub-agents' chats);
- `bubbleId:<composer>:<bubble>`: one message ("bubble"): `type` 1 the user's (`text`), 2 the assistant's, in small
  pieces: a `thinking` (`text`, `signature`), a `text`, or one tool use (`toolFormerData`: `name`, `toolCallId`,
  `rawArgs` the model's arguments as JSON text, `params`, `result` as JSON text, `status`, `userDecision`), an
  error (`errorDetails`), its `tokenCount`;
- `messageRequestContext:<composer>:<bubble>`: what Cursor sent with that request (rules, git status, the project's
  layout): injected context; the other keys (checkpoints, diffs, blobs) are bookkeeping (frame).
The table `ItemTable` (the editor's settings, and its sign-in tokens) is not read.

A chat's assistant bubbles after a user bubble are one turn: its text before a tool use is a preamble. A tool use
is a call and, from the same bubble, its reply; a cancelled or rejected one is said to be. A sub-agent's chat (a
`task_v2` call names it `subComposerId`) is a thread of its parent.

Every chat and bubble is accounted for (docs/architecture.md, "Nothing lost"): what a chat's record says beside
what is read (its mode, the context it was given, the lines it changed, how full its context window was) is its
header's `composer`; what a bubble says beside its message (the model, when it completed, how long it thought, its
context) and a tool use's other fields are its first message's details; a bubble whose value is no JSON object (cut
short as it was written) is a hidden message holding it as written (W-JSON-SYNTAX). A member no table here names is
kept in the header's `unread`.
"""
from __future__ import annotations

from msgspec.structs import replace as replace_fields

from viewer.bundles import read_bundle
from viewer.model import Diagnostic, Meta, Span, Transcript, Usage, make_diagnostic
from viewer.parse.agents.lines import Line, claims
from viewer.parse.agents.meta import NOTHING, usage_totals
from viewer.parse.agents.records import rest_details
from viewer.parse.agents.session import Session
from viewer.parse.agents.stores import Sessions, call_with_id, decoded, iso_time, not_a_database, rows, table
from viewer.parse.common import Pending, shown_json
from viewer.parse.json import drafts
from viewer.parse.json.fields import object_in
from viewer.parse.json.source import Draft
from viewer.parse.options import ParseOptions

COMPOSER, BUBBLE, CONTEXT = "composerData:", "bubbleId:", "messageRequestContext:"
COMPOSER_READ = ("_v", "composerId", "name", "createdAt", "status", "modelConfig.modelName",
                 "fullConversationHeadersOnly", "conversation", "subComposerIds", "workspaceIdentifier.uri.fsPath")
"""What the reader reads of a chat's record (its bubbles' headers name them; the record's version is a tag)."""
COMPOSER_FACTS = ("lastUpdatedAt", "context", "contextTokenLimit", "contextTokensUsed", "filesChangedCount",
                  "totalLinesAdded", "totalLinesRemoved", "forceMode", "unifiedMode", "isAgentic", "hasChangedContext",
                  "hasLoaded", "isReadingLongFile", "modelConfig", "workspaceIdentifier", "richText", "text",
                  "generatingBubbleIds", "codeBlockData", "originalFileStates", "newlyCreatedFiles",
                  "newlyCreatedFolders", "capabilities", "conversationMap", "isArchived", "isDraft")
"""What a chat's record says beside that (Cursor's composerData): kept in its header's `composer`, less what is
read (`text` and `richText` there are what was typed and not sent)."""
BUBBLE_READ = ("_v", "type", "bubbleId", "text", "richText", "thinking.text", "thinking.signature",
               "toolFormerData.name", "toolFormerData.toolCallId", "toolFormerData.rawArgs", "toolFormerData.params",
               "toolFormerData.result", "toolFormerData.status", "toolFormerData.userDecision",
               "errorDetails.error", "errorDetails.message", "tokenCount.inputTokens", "tokenCount.outputTokens",
               "createdAt", "requestId", "usageUuid")
"""What the reader reads of a bubble (`richText` is its text as the editor's rich text; the request's and usage
record's uuids name them)."""
BUBBLE_FACTS = ("toolFormerData", "errorDetails", "thinking", "modelInfo", "thinkingDurationMs", "completedAtMs",
                "context", "capabilityType", "unifiedMode", "isAgentic", "isRefunded", "useWeb",
                "attachedHumanChanges", "existedPreviousTerminalCommand", "existedSubsequentTerminalCommand",
                "workspaceUris")
"""What a bubble says beside that (less what is read of a tool use, an error, a thinking): its details."""
_ROW = claims("key", *(f"value.{path}" for path in (*COMPOSER_READ, *COMPOSER_FACTS)))
_BUBBLE_ROW = claims("key", *(f"value.{path}" for path in (*BUBBLE_READ, *BUBBLE_FACTS)))
_CONTEXT_ROW = claims("key", "value")


def parse_cursor(text: str, options: ParseOptions) -> Transcript:
    """Read Cursor's state.vscdb. Never raises on user input."""
    bundle = read_bundle(text)
    if bundle is None:
        return not_a_database("cursor", text, "Cursor keeps its chats in a SQLite database (state.vscdb)")
    problems: list[Diagnostic] = []
    member = table(bundle, "cursorDiskKV")
    by_key = {line.get("key"): line for line in rows(text, member, problems) if isinstance(line.get("key"), str)}
    composers = {key[len(COMPOSER):]: line for key, line in by_key.items() if key.startswith(COMPOSER)
                 and isinstance(line.get("value"), dict)}
    used: set[str] = set()
    parents = {child: id for id, line in composers.items() for child in line.get("value").get("subComposerIds") or ()
               if isinstance(child, str)}
    read = Sessions()
    for id, line in composers.items():
        value = line.get("value")
        title = value.get("name") if isinstance(value.get("name"), str) and value.get("name") else None
        read.add(id, _chat(text, id, line, by_key, used), parents.get(id), title)
    quiet = [line.span for key, line in by_key.items() if key not in used and not key.startswith(COMPOSER)]
    problems += [make_diagnostic("W-BUNDLE-MEMBER", span, "A value Cursor keeps for its own use (a checkpoint, a "
                                 "diff, a blob), not a message; it was not read.") for span in quiet]
    understood = [m for m in bundle.members if m.path.endswith("#sqlite_schema")]
    return read.assembled("cursor", text, bundle, _task_call(by_key), read=[member] if member else [],
                          understood=understood, problems=problems)


def _chat(text: str, id: str, composer: Line, by_key: dict[str, Line], used: set[str]) -> Transcript:
    value = composer.get("value")
    builder = Session(text)
    builder.account(composer, _ROW, "cursorDiskKV row")
    noted: dict[int, dict] = {}
    model = (value.get("modelConfig") or {}).get("modelName") if isinstance(value.get("modelConfig"), dict) else None
    headers = value.get("fullConversationHeadersOnly")
    inline = value.get("conversation") if isinstance(value.get("conversation"), list) else []
    turn = builder.next_turn()
    usages: dict[int, Usage] = {}
    for header in headers if isinstance(headers, list) else inline:
        bubble_id = header.get("bubbleId") if isinstance(header, dict) else None
        key = f"{BUBBLE}{id}:{bubble_id}"
        line = by_key.get(key)
        bubble = line.get("value") if line is not None else header if not headers else None
        if not isinstance(bubble, dict) and line is not None:  # kept as written, hidden
            used.add(key)
            builder.add_line(line, [_unreadable(bubble, bubble_id, line.span)], turn)
            continue
        if not isinstance(bubble, dict):
            builder.diagnostics.append(make_diagnostic("W-JSON-SHAPE", composer.span, f"The chat names a message "
                                                       f"({bubble_id}) whose record is missing; it was not read."))
            used.add(key)
            continue
        used.add(key)
        if line is not None:
            builder.account(line, _BUBBLE_ROW, "cursorDiskKV row")
        line = line or composer
        if bubble.get("type") == 1:
            turn = builder.next_turn()
        first = len(builder.messages)
        builder.add_line(line, _pieces(bubble, line.span, builder), turn)
        said = rest_details(bubble, BUBBLE_FACTS, claims(*BUBBLE_READ))
        if said and len(builder.messages) > first:
            noted[first] = said
        tokens = _tokens(bubble)
        if tokens is not None and builder.messages:
            usages[len(builder.messages) - 1] = tokens
        context = by_key.get(f"{CONTEXT}{id}:{bubble_id}")
        if context is not None:
            used.add(f"{CONTEXT}{id}:{bubble_id}")
            builder.account(context, _CONTEXT_ROW, "cursorDiskKV row")
            builder.add_line(context, [Draft(dict(role="user", name="context", channel="final", content=shown_json(
                context.get("value")), end="end", intent="context"), None)], turn)
    if value.get("status") == "aborted":
        builder.diagnostics.append(make_diagnostic("W-SESSION-INTERRUPTED", composer.span,
                                                   "The user stopped this chat's last answer."))
    messages = []
    for message, line in zip(builder.messages, builder.lines):
        bubble = line.get("value") if isinstance(line.get("value"), dict) else {}
        meta = Meta(timestamp=iso_time(bubble.get("createdAt")), usage=usages.get(message.index),
                    model=model if message.role == "assistant" else None, details=noted.get(message.index))
        messages.append(message if meta == NOTHING else replace_fields(message, meta=meta))
    uri = object_in(object_in(value, "workspaceIdentifier"), "uri")
    header = {"producer": "cursor", "session_id": id, "cwd": uri.get("fsPath"),
              "created": iso_time(value.get("createdAt")), **usage_totals(usages.values(), [model] if model else []),
              "composer": rest_details(value, COMPOSER_FACTS, claims(*COMPOSER_READ))}
    return Transcript(dialect="cursor", source=text, messages=tuple(messages), diagnostics=tuple(builder.diagnostics),
                      header=builder.with_unread({key: value for key, value in header.items() if value is not None}),
                      frame=builder.frame([composer.span], builder.diagnostics))


def _unreadable(value: object, bubble_id: object, span: Span) -> Draft:
    """A bubble's record whose value is no JSON object (its text cut short as it was written): a hidden message of its
    own holding the value as written, in the debug view, with a diagnostic."""
    piece = Draft(dict(role="unknown", channel="unknown", content=value if isinstance(value, str) else shown_json(value),
                       end="end"), None)
    piece.problems.append(Pending("W-JSON-SYNTAX", f"The chat names a message ({bubble_id}) whose record is not valid "
                                                   "JSON (cut short as it was written?); it is kept as written, a "
                                                   "message of its own hidden from the default view.", span))
    return piece


def _pieces(bubble: dict, span: Span, builder: Session) -> list[Draft]:
    if bubble.get("type") == 1:
        return [Draft(dict(role="user", channel="final", content=str(bubble.get("text") or ""), end="end"), None)]
    if bubble.get("type") != 2:
        return [drafts.unclassified("unknown", None, bubble, span, "W-JSON-UNKNOWN-ITEM",
                                    f"A bubble of type {bubble.get('type')!r}")]
    found = []
    thinking = bubble.get("thinking")
    if isinstance(thinking, dict):
        piece = drafts.analysis("assistant", str(thinking.get("text") or ""), None)
        if thinking.get("signature"):
            piece.problems.append(drafts.opaque_problem("thinking", thinking["signature"], "signature", span))
        found.append(piece)
    if isinstance(bubble.get("text"), str) and bubble["text"].strip():
        found.append(Draft(dict(role="assistant", channel="final", content=bubble["text"], end="end"), None))
    tool = bubble.get("toolFormerData")
    if isinstance(tool, dict):
        found += _tool(tool, span, builder)
    error = bubble.get("errorDetails")
    if isinstance(error, dict):
        said = " ".join(str(error.get(key) or "") for key in ("error", "message")).strip()
        found.append(Draft(dict(role="system", name="error", channel="final", content=said or "error", end="end"),
                           None, [Pending("W-TOOL-ERROR" if tool else "W-SESSION-INTERRUPTED",
                                          f"Cursor reported an error here: {said[:200]}", span)]))
    return found


def _tool(tool: dict, span: Span, builder: Session) -> list[Draft]:
    name = tool.get("name") if isinstance(tool.get("name"), str) else "tool"
    call_id = tool.get("toolCallId") if isinstance(tool.get("toolCallId"), str) else None
    arguments = tool.get("rawArgs") if isinstance(tool.get("rawArgs"), str) else tool.get("params")
    found = [drafts.call(f"functions.{name}", arguments if isinstance(arguments, str) else shown_json(arguments),
                         None, call_id)]
    status, decision = tool.get("status"), tool.get("userDecision")
    result = tool.get("result")
    if result is None and status not in ("cancelled", "error") and decision != "rejected":
        return found  # still running when the chat was saved: unanswered
    reply = drafts.reply(f"functions.{name}", result if isinstance(result, str) else shown_json(result or status),
                         None, call_id)
    if status in ("cancelled", "error") or decision == "rejected":
        what = "rejected by the user" if decision == "rejected" else status
        reply.problems.append(Pending("W-SESSION-INTERRUPTED" if status == "cancelled" else "W-TOOL-ERROR",
                                      f"The tool {name} was {what}.", span))
    found.append(reply)
    return found


def _tokens(bubble: dict) -> Usage | None:
    counts = bubble.get("tokenCount")
    if bubble.get("type") != 2 or not isinstance(counts, dict):
        return None
    used = Usage(*(count if isinstance(count, int) and not isinstance(count, bool) else 0
                   for count in (counts.get("inputTokens"), counts.get("outputTokens"))))
    return used if used.input or used.output else None


def _task_call(by_key: dict[str, Line]):
    """The call that started each sub-agent's chat: the tool use whose arguments or result name it."""
    started: dict[str, str] = {}
    for key, line in by_key.items():
        tool = line.get("value").get("toolFormerData") if key.startswith(BUBBLE) and isinstance(
            line.get("value"), dict) else None
        if not isinstance(tool, dict) or not isinstance(tool.get("toolCallId"), str):
            continue
        for field in ("params", "result"):
            named = decoded(tool.get(field))
            if isinstance(named, dict) and isinstance(named.get("subComposerId"), str):
                started[named["subComposerId"]] = tool["toolCallId"]
    return lambda parent, child: call_with_id(parent, started.get(child))


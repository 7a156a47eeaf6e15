"""Every format the viewer reads, one record each: the dialects an upload is detected as (in the order a person
is offered them), then the JSON shapes the JSON dialect reads (in the order each level tries them). A fact about a
format belongs in its record; code asks the record (viewer/formats/__init__.py), never a table of its own keyed
by a format's name. docs/architecture.md, "How to add a format", says what to write beside a new record.
"""
from __future__ import annotations

from viewer.formats.kinds import (
    AnyJson, AnyText, Dialect, JsonKeys, JsonLines, JsonShape, Level, Line, Members, Opens, Pairing, Preambles,
    Prompt, SessionFiles,
    Threads, Tokens, Writer, YamlHeader)

HARMONY_MARKS = ("<|start|>", "<|channel|>", "<|message|>")
CHATML_MARKS = ("<|im_start|>", "<|im_end|>", "<|fim_prefix|>", "<|file_separator|>", "<|function_call|>")
CODEX_ROLLOUT = ("session_meta", "response_item", "event_msg", "turn_context", "compacted")
CODEX_EXEC = ("thread.started", "turn.started", "item.started", "item.completed")
CODEX_ROLLOUT_FILE = r"(?:^|/)rollout-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-[0-9a-fA-F-]{36}\.jsonl$"
"""How Codex names a rollout file (`rollout-<local time>-<thread id>.jsonl`)."""
CLAUDE_CODE_KEYS = ("sessionId", "parentUuid", "leafUuid", "isSidechain")
"""Keys only a Claude Code session line has (beside its `type`)."""
OPENHANDS_V1_KIND = (r'"kind"\s*:\s*"(?:SystemPrompt|Message|Action|Observation|AgentError|Pause|'
                     r'ConversationStateUpdate|CondensationSummary)Event"')
"""An OpenHands V1 event names its class in `kind`."""
OPENHANDS_V0_EVENT = (r'"id"\s*:\s*\d+\s*,\s*"timestamp"\s*:\s*"[^"]*"\s*,\s*"source"\s*:\s*"(?:agent|user|environment)"'
                      r'(?:\s*,\s*"(?:message|cause)"\s*:\s*(?:"(?:[^"\\]|\\.)*"|\d+))*'
                      r'\s*,\s*"(?:action|observation)"\s*:\s*"[a-z_]+"')
"""An OpenHands V0 event, as its serializer orders the keys: `id`, `timestamp`, `source`, `message`, `cause`, then
`action` or `observation`."""
COPILOT_EVENTS = ("session.", "user.", "assistant.", "tool.", "tool_search.", "subagent.", "system.", "skill.",
                  "hook.", "permission.", "abort")
"""How the types of the events the Copilot CLI writes to its session log begin."""
BAR, BLOCK = "\uff5c", "\u2581"
"""DeepSeek's special tokens are spelled with FULLWIDTH VERTICAL LINE and LOWER ONE EIGHTH BLOCK."""
JSON_ARRAY = r"\A\[\s*\{"
"""A JSON array of objects (detection looks at the text after its leading blanks)."""
ENVIRONMENT_BLOCK = r'(?<!\\)"text"\s*:\s*"<environment_details>\\n'
"""The `<environment_details>` block Cline and its forks end every user turn with (a text block of its own)."""
CLINE_HISTORY = (r'(?<!\\)"(?:modelInfo"\s*:\s*\{\s*"modelId|metrics"\s*:\s*\{\s*"tokens|text"\s*:\s*"(?:<task>\\n|'
                 r'<user_message>\\n|<environment_details>\\n|\[[a-z_]+(?: for [^"\]\n]*)?\] Result:))')
"""Any mark of Cline's (and its forks') API history: an assistant's `modelInfo` or `metrics`, the first turn's
`<task>` (Roo Code's `<user_message>`, when a long first message pushes its environment details out of the head
detection reads), the environment details, a tool result written as text. Plain Anthropic messages have none."""
ROO_ENVIRONMENT = r"Current time in ISO 8601 UTC format:|# Current Mode\\n<slug>"
"""How Roo Code (and Kilo Code) write the time and the mode in the environment details; Cline writes neither."""
KILO_ENVIRONMENT = r"<tool_format>(?:xml|native)</tool_format>"
"""The tool protocol Kilo Code 4.x and 5.x lock a task to, which its environment details name."""

PI_ENTRIES = ("message", "model_change", "thinking_level_change", "compaction", "branch_summary", "custom_message",
              "custom", "label", "session_info")
"""The entries of a pi session after its header line (a session whose header is lost opens with one)."""
KIMI_CODE_RECORDS = ("config.update", "turn.prompt", "context.append_message", "context.append_loop_event",
                     "tools.set_active_tools", "permission.set_mode", "llm.request")
"""Records a Kimi Code wire opens with when its metadata line is missing (older 1.x wires)."""
KIMI_CLI_EVENT = r'\A\{\s*"timestamp"\s*:\s*[\d.]+\s*,\s*"message"\s*:\s*\{\s*"type"\s*:\s*"[A-Z]'
"""A Kimi CLI wire's event line, for a wire with no metadata line (the oldest)."""
JSON_OBJECT = r"\A\{"
SDK_AGENT = r'(?<!\\)"agent"\s*:\s*"(?:lead|subagent|teammate)"'
"""Who wrote a Cline SDK messages file: the session's lead agent, a sub-agent or a teammate."""
UI_ROWS = r'\A\[\s*\{\s*"ts"\s*:\s*\d+\s*,\s*"type"\s*:\s*"(?:say|ask)"'
"""The first row of a chat panel's `ui_messages.json`: `{"ts": …, "type": "say", …}`."""


def vscode_tasks(extension: str) -> tuple[str, ...]:
    """The task folders of a VS Code extension in VS Code and its forks, on Linux and macOS."""
    return tuple(f"{base}/{editor}/User/globalStorage/{extension}/tasks"
                 for base in ("~/.config", "~/Library/Application Support")
                 for editor in ("Code", "Code - Insiders", "VSCodium", "Cursor", "Windsurf"))


OPENAI_CHAT = Prompt(target="openai-json")
"""A log of calls to a chat API: the model read the messages as the API's JSON, its server wrote the prompt."""

JSON_SHAPES: tuple[JsonShape, ...] = (
    JsonShape(
        name="otel",
        title="OpenTelemetry GenAI spans: OTLP JSON (also one export per line), the console exporter's spans, "
              "OpenLLMetry's flat `gen_ai.prompt.N.*`; a trace's spans are one conversation in time order, several "
              "traces a dataset whose index names each trace",
        written_by="OpenTelemetry's GenAI instrumentations and exporters, OpenLLMetry",
        example='{"resourceSpans": [{"scopeSpans": [{"spans": [{"attributes": [{"key": "gen_ai.input.messages", '
                '"value": {"stringValue": "[{\\"role\\": \\"user\\", \\"parts\\": [...]}]"}}]}]}]}]}',
        samples=("json-otel-*",),
        readers={Level.FILE: "viewer.parse.json.otel"}),
    JsonShape(
        name="inspect",
        title="Inspect AI eval logs: the JSON log (several samples are a dataset whose index shows each sample's "
              "id, target and score), one sample, the `.eval` zip archive",
        written_by="Inspect AI (`inspect eval`, logs/*.json and *.eval)",
        example='{"version": 2, "eval": {...}, "samples": [{"id": 1, "target": "42", "messages": [...], '
                '"scores": {...}}]}',
        samples=("json-inspect-*", "inspect-*.eval"),
        readers={Level.FAST_RECORD: "viewer.parse.json.inspect_sample", Level.DOCUMENT: "viewer.parse.json.inspect_log"}),
    JsonShape(
        name="langchain",
        title="LangChain messages (`messages_to_dict`, `dumpd`) and a LangGraph thread state",
        written_by="LangChain and LangGraph (serialized messages, checkpoints)",
        example='{"lc": 1, "type": "constructor", "id": ["langchain", "schema", "messages", "AIMessage"], '
                '"kwargs": {"content": "Hi", "tool_calls": [...]}}',
        samples=("json-langchain-*", "json-langgraph-*"),
        readers={Level.DOCUMENT: "viewer.parse.json.langchain", Level.ELEMENT: "viewer.parse.json.langchain"}),
    JsonShape(
        name="ai-sdk",
        title="Vercel AI SDK UI messages (v5 `parts`, v4 `toolInvocations`)",
        written_by="the Vercel AI SDK's `useChat` (UIMessage arrays a chat app stores)",
        example='{"id": "m1", "role": "assistant", "parts": [{"type": "reasoning", "text": "..."}, '
                '{"type": "tool-getWeather", "state": "output-available", ...}]}',
        samples=("json-ai-sdk-*",),
        readers={Level.ELEMENT: "viewer.parse.json.ai_sdk"}),
    JsonShape(
        name="llamafactory",
        title="LLaMA-Factory's v1 rows: messages of `{\"type\": \"text\" | \"reasoning\" | \"tool_call\", \"value\"}` "
              "parts and `loss_weight`, `tools` as JSON text (its preference rows `chosen_messages` / "
              "`rejected_messages`: see the preference pairs)",
        written_by="LLaMA-Factory's v1 data engine and converters (`data/*_demo.jsonl`, fine-tuning datasets)",
        example='{"messages": [{"role": "user", "content": [{"type": "text", "value": "Hi"}]}, {"role": "assistant", '
                '"content": [{"type": "reasoning", "value": "…"}, {"type": "text", "value": "Hello"}]}]}',
        samples=("json-llamafactory-*",),
        readers={Level.ELEMENT: "viewer.parse.json.llamafactory"}),
    JsonShape(
        name="sharegpt",
        title="ShareGPT turns (also LLaMA-Factory's `tools`)",
        written_by="fine-tuning datasets (ShareGPT, Vicuna, LLaMA-Factory)",
        example='{"conversations": [{"from": "human", "value": "Hi"}, {"from": "gpt", "value": "Hello"}]}',
        samples=("json-sharegpt-*",),
        readers={Level.ELEMENT: "viewer.parse.json.sharegpt"}),
    JsonShape(
        name="preference",
        title="Preference pairs: TRL's `prompt` / `chosen` / `rejected` (text, conversational or implicit prompt) "
              "and OpenAI's preference fine-tuning; the rejected answer is hidden by default (debug view)",
        written_by="preference datasets (TRL's DPO trainer, OpenAI preference fine-tuning files)",
        example='{"prompt": [{"role": "user", "content": "…"}], "chosen": [{"role": "assistant", …}], '
                '"rejected": [...], "score_chosen": 8.0}',
        samples=("json-preference-*",),
        readers={Level.FAST_RECORD: "viewer.parse.json.preference_plain", Level.RECORD: "viewer.parse.json.preference"}),
    JsonShape(
        name="batch",
        title="OpenAI Batch input and output, Anthropic Message Batches requests and results: a dataset whose "
              "index shows each `custom_id`",
        written_by="the OpenAI Batch API and Anthropic's Message Batches API (JSON Lines files)",
        example='{"custom_id": "request-1", "method": "POST", "url": "/v1/chat/completions", '
                '"body": {"messages": [...]}}',
        samples=("json-batch-*",),
        readers={Level.FAST_RECORD: "viewer.parse.json.batch_plain", Level.RECORD: "viewer.parse.json.batches"}),
    JsonShape(
        name="chat-completion",
        title="A Chat Completions response (`reasoning_content`, `reasoning`, `reasoning_details`, `tool_calls`), "
              "or its stream of `chat.completion.chunk` deltas, JSON Lines or `data:` events (one message per choice)",
        written_by="the OpenAI Chat Completions API and the servers that copy it (vLLM, OpenRouter, DeepSeek, …)",
        example='{"object": "chat.completion", "choices": [{"message": {"role": "assistant", "content": "…", '
                '"reasoning_content": "…"}}]}',
        samples=("json-chat-completion-*",),
        readers={Level.RECORD: "viewer.parse.json.completions", Level.STREAM: "viewer.parse.json.completion_chunks"}),
    JsonShape(
        name="gemini",
        title="Gemini API requests and responses, REST camelCase or the Python SDK's snake_case `model_dump()` "
              "(thought parts, `thoughtSignature`, function calls and responses, code execution, inline and file "
              "data); `streamGenerateContent` chunks, a JSON array or `data:` events (one message per candidate)",
        written_by="the Gemini API (REST) and the google-genai SDK",
        example='{"systemInstruction": {"parts": [...]}, "contents": [{"role": "model", "parts": [{"text": "…", '
                '"thought": true}, {"functionCall": {"name": "get_weather", "args": {…}}}]}]}',
        samples=("json-gemini-*",),
        readers={Level.RECORD: "viewer.parse.json.gemini", Level.STREAM: "viewer.parse.json.gemini_chunks",
                 Level.ELEMENT: "viewer.parse.json.gemini_content"}),
    JsonShape(
        name="ollama",
        title="Ollama `/api/chat` requests, responses and NDJSON streams (a stream's chunks are one message)",
        written_by="Ollama's HTTP API",
        example='{"model": "qwen3", "message": {"role": "assistant", "content": "", "thinking": "…", '
                '"tool_calls": [{"function": {"name": "f", "arguments": {}}}]}, "done": true}',
        samples=("json-ollama-*",),
        readers={Level.RECORD: "viewer.parse.json.ollama", Level.STREAM: "viewer.parse.json.ollama"}),
    JsonShape(
        name="responses",
        title="OpenAI Responses API (a response's `output`, a request's `input`)",
        written_by="the OpenAI Responses API",
        example='{"object": "response", "output": [{"type": "reasoning", ...}, {"type": "function_call", '
                '"call_id": "c1", ...}]}',
        samples=("json-responses-*",),
        readers={Level.ELEMENT: "viewer.parse.json.responses"}),
    JsonShape(
        name="chat",
        title="Chat messages: OpenAI chat (`tool_calls`, `reasoning_content`, `<think>` left in `content`), "
              "Anthropic Messages requests and responses (content blocks, server tools, citations), OpenChatML "
              "2.0/2.2 JSON interchange, openai-harmony message dicts; a list, an envelope or JSON Lines",
        written_by="chat APIs' requests and responses, SDK logs, fine-tuning files",
        example='{"messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "tool_calls": [...]}]}',
        samples=("json-openai-*", "json-anthropic-*", "json-ocml*", "json-harmony-messages*", "json-messages-*"),
        readers={Level.ELEMENT: "viewer.parse.json.elements"}),
)
"""Each level tries its shapes in this order (viewer/parse/json/shapes.py)."""

DIALECTS: tuple[Dialect, ...] = (
    Dialect(
        name="openchatml",
        title="OpenChatML 2.x: Harmony tokens after a YAML header with version: 2.x",
        written_by="OpenChatML 2.x producers (the spec's own examples and fixtures)",
        example="---\nversion: 2.2\n---\n<|start|>user<|message|>What is 2+2?<|end|>",
        samples=("openchatml-*",),
        detection=(YamlHeader(),),
        reader="viewer.parse.harmony:parse_harmony",
        writer=Writer("openchatml", "viewer.write.openchatml:to_openchatml_written"),
        prompt=Prompt(target="openchatml", generation="<|start|>assistant", drops="after-final"),
        source_lexer="openchatml", tail=True, channels_written=True),
    Dialect(
        name="harmony",
        title="Harmony (gpt-oss): <|start|>role<|channel|>…<|message|>…<|end|>",
        written_by="gpt-oss as openai-harmony, the chat template, vLLM and llama.cpp write it",
        example="<|start|>user<|message|>What is 2+2?<|end|>",
        samples=("harmony-*",),
        detection=(Tokens(marks=HARMONY_MARKS), AnyText()),
        reader="viewer.parse.harmony:parse_harmony",
        writer=Writer("harmony", "viewer.write.harmony:to_harmony"),
        prompt=Prompt(target="harmony", generation="<|start|>assistant", history="viewer.write.harmony:as_history",
                      write="viewer.write.harmony:as_received", bodies_verbatim=True, drops="auto-drop-analysis"),
        source_lexer="harmony", preambles=Preambles.HARMONY, tail=True, channels_written=True),
    Dialect(
        name="chatml",
        title="ChatML and OpenChatML 0.1: <|im_start|>role … <|im_end|>; `<think>`, Hermes `<tool_call>`",
        written_by="chat templates of Qwen, QwQ, Hermes and DeepSeek-R1 distills; OpenChatML 0.1 producers",
        example="<|im_start|>user\nWhat is 2+2?<|im_end|>",
        samples=("chatml-*",),
        detection=(Tokens(marks=CHATML_MARKS, openings=("<s>", "[BOS]")),),
        reader="viewer.parse.chatml:parse_chatml",
        pairing=Pairing.BY_ORDER,
        writer=Writer("chatml", "viewer.write.chatml:to_chatml"),
        prompt=Prompt(target="chatml", generation="<|im_start|>assistant\n"),
        source_lexer="chatml", tail=True),
    Dialect(
        name="json",
        title="JSON messages: OpenAI chat and Responses API, Anthropic Messages, ShareGPT, OpenChatML 2.x "
              "interchange, openai-harmony dicts, JSON Lines; datasets of many conversations (JSON Lines or an "
              "array), and the shapes below",
        written_by="chat APIs, SDKs, frameworks, evaluation tools and fine-tuning datasets",
        example='[{"role": "user", "content": "What is 2+2?"}]',
        samples=("json-*", "inspect-*.eval"),
        detection=(AnyJson(),),
        reader="viewer.parse.json:parse_json",
        writer=Writer("openai-json", "viewer.write.openai_json:to_openai_json"),
        prompt=OPENAI_CHAT,
        source_lexer="json", json_escapes=True, shapes=JSON_SHAPES),
    Dialect(
        name="events",
        title="A streaming event log (JSON Lines of response.* and tool.* events)",
        written_by="OpenChatML 2.2 §9 event streams, the Responses API's streamed events",
        example='{"type": "response.output_text.delta", "delta": "4"}\n{"type": "response.done"}',
        samples=("events-*",),
        detection=(JsonLines((Line(type_prefixes=("response.", "tool.")),)),),
        reader="viewer.parse.events:parse_events",
        lines="viewer.parse.events.reader:EventsReader",
        writer=None,
        prompt=OPENAI_CHAT,
        source_lexer="json", tail=True, json_escapes=True),
    Dialect(
        name="llama3",
        title="Llama 3.x raw prompt: <|start_header_id|>role<|end_header_id|> … <|eot_id|>",
        written_by="Llama 3.x chat templates (`ipython` replies, `<|python_tag|>` built-in calls, JSON and 3.2 "
                   "pythonic calls)",
        example="<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nWhat is 2+2?<|eot_id|>",
        samples=("llama3-*",),
        detection=(Tokens(marks=("<|start_header_id|>", "<|eot_id|>", "<|eom_id|>", "<|python_tag|>"),
                          openings=("<|begin_of_text|>",)),),
        reader="viewer.parse.templates:parse_llama3",
        pairing=Pairing.BY_ORDER,
        writer=Writer("llama3", "viewer.write.llama3:to_llama3"),
        prompt=Prompt(target="llama3", generation="<|start_header_id|>assistant<|end_header_id|>\n\n"),
        source_lexer=None),
    Dialect(
        name="gemma",
        title="Gemma 2/3 and FunctionGemma raw prompt: <start_of_turn>user|model … <end_of_turn>",
        written_by="Gemma 2 and 3 chat templates, FunctionGemma's declaration, call and response blocks",
        example="<bos><start_of_turn>user\nWhat is 2+2?<end_of_turn>\n",
        samples=("gemma*",),
        detection=(Tokens(marks=("<start_of_turn>", "<end_of_turn>"), openings=("<bos>",)),),
        reader="viewer.parse.templates:parse_gemma",
        writer=Writer("gemma", "viewer.write.gemma:to_gemma"),
        prompt=Prompt(target="gemma", generation="<start_of_turn>model\n"),
        source_lexer=None),
    Dialect(
        name="mistral",
        title="Mistral raw prompt (mistral-common V1 to V13): [INST] … [/INST] … </s>, [TOOL_CALLS], [THINK]",
        written_by="mistral-common's instruct tokenizers V1 to V13 (`[SYSTEM_PROMPT]`, `[TOOL_RESULTS]`, "
                   "Magistral's `[THINK]`)",
        example="<s>[INST]What is 2+2?[/INST]4</s>",
        samples=("mistral-*",),
        detection=(Tokens(marks=("[INST]", "[/INST]", "[SYSTEM_PROMPT]", "[AVAILABLE_TOOLS]", "[TOOL_RESULTS]",
                                 "[TOOL_CALLS]")),),
        reader="viewer.parse.templates:parse_mistral",
        pairing=Pairing.BY_ORDER,
        writer=Writer("mistral", "viewer.write.mistral:to_mistral"),
        # No generation prompt: the answer follows `[/INST]` (or a tool result), which the writer writes.
        prompt=Prompt(target="mistral"),
        source_lexer=None),
    Dialect(
        name="deepseek",
        title=f"DeepSeek R1/V3/V3.1 raw prompt: <{BAR}User{BAR}> … <{BAR}Assistant{BAR}> … <think>, tool-call tokens",
        written_by="DeepSeek R1, V3 and V3.1 chat templates (fullwidth-bar tokens)",
        example=f"<{BAR}begin{BLOCK}of{BLOCK}sentence{BAR}><{BAR}User{BAR}>What is 2+2?<{BAR}Assistant{BAR}>4"
                f"<{BAR}end{BLOCK}of{BLOCK}sentence{BAR}>",
        samples=("deepseek-*",),
        detection=(Tokens(marks=(f"<{BAR}begin{BLOCK}of{BLOCK}sentence{BAR}>", f"<{BAR}User{BAR}>",
                                 f"<{BAR}Assistant{BAR}>", f"<{BAR}end{BLOCK}of{BLOCK}sentence{BAR}>")),),
        reader="viewer.parse.templates:parse_deepseek",
        pairing=Pairing.BY_ORDER,
        writer=Writer("deepseek", "viewer.write.deepseek:to_deepseek"),
        prompt=Prompt(target="deepseek", generation=f"<{BAR}Assistant{BAR}>", drops="earlier-exchanges"),
        source_lexer=None),
    Dialect(
        name="phi",
        title="Phi-3/3.5/4/4-mini/4-reasoning raw prompt: <|user|> … <|end|>, or <|im_start|>user<|im_sep|>",
        written_by="Phi-3, 3.5, 4, 4-mini and 4-reasoning chat templates (`<|tool|>` definitions, `<|tool_call|>`)",
        example="<|user|>\nWhat is 2+2?<|end|>\n",
        samples=("phi*",),
        # Phi-4 writes ChatML's envelope with `<|im_sep|>` after the role: at the same place, that beats ChatML.
        detection=(Tokens(marks=("<|system|>", "<|user|>", "<|assistant|>", "<|tool|>", "<|tool_call|>"),
                          patterns=(r"<\|im_start\|>[^<\n]*<\|im_sep\|>",)),),
        priority=1,
        reader="viewer.parse.templates:parse_phi",
        pairing=Pairing.BY_ORDER,
        writer=Writer("phi", "viewer.write.phi:to_phi"),
        prompt=Prompt(target="phi", generation="<|assistant|>"),
        source_lexer=None),
    Dialect(
        name="claude-code",
        title="A Claude Code session (~/.claude/projects/…/<session>.jsonl, or Claude Code on the web's session "
              "document `{\"loglines\": [...]}`): sub-agents, compaction, rewinds",
        written_by="Claude Code (`~/.claude/projects/<project>/<session>.jsonl`); Claude Code on the web's session "
                   "API (`claude-code-transcripts web --json`)",
        example='{"type": "user", "uuid": "u1", "parentUuid": null, "sessionId": "s1", '
                '"message": {"role": "user", "content": "What is 2+2?"}}',
        samples=("claude-code-*",),
        detection=(JsonLines((Line(with_any=CLAUDE_CODE_KEYS, without=("role",)),
                              Line(types=("file-history-snapshot",), with_all=("snapshot",)))),
                   JsonKeys(arrays=("loglines",), patterns=(JSON_OBJECT,)),
                   Members((r"(?:^|/)subagents/agent-[^/]+\.jsonl$",))),
        reader="viewer.parse.agents:parse_claude_code_files",
        lines="viewer.parse.agents.claude_code:ClaudeCodeReader",
        writer=None,
        prompt=OPENAI_CHAT,
        source_lexer="json",
        session=SessionFiles(agent="Claude Code", folders=("~/.claude/projects", "$CLAUDE_CONFIG_DIR/projects"),
                             pattern="*.jsonl", companions="subagents/agent-*", thinned=True,
                             lister="viewer.sessions.titles:claude_code"),
        screen="viewer.policy.screens.claude_code",
        preambles=Preambles.AGENT, threads=Threads.SIDE_LINES, json_escapes=True),
    Dialect(
        name="codex",
        title="A Codex CLI rollout (~/.codex/sessions/…/rollout-*.jsonl) or a `codex exec --json` stream",
        written_by="Codex CLI (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`, `codex exec --json`)",
        example='{"timestamp": "2025-09-14T09:00:00Z", "type": "response_item", "payload": {"type": "message", '
                '"role": "user", "content": [{"type": "input_text", "text": "What is 2+2?"}]}}',
        samples=("codex-*",),
        detection=(JsonLines((Line(types=CODEX_ROLLOUT, objects=("payload",)), Line(types=CODEX_EXEC))),
                   Members((CODEX_ROLLOUT_FILE,))),
        reader="viewer.parse.agents:parse_codex_files",
        lines="viewer.parse.agents.codex:CodexReader",
        writer=None,
        prompt=OPENAI_CHAT,
        source_lexer="json",
        session=SessionFiles(agent="Codex", folders=("~/.codex/sessions", "~/.codex/archived_sessions",
                                                     "$CODEX_HOME/sessions", "$CODEX_HOME/archived_sessions"),
                             pattern="*.jsonl", thinned=True, spawned="viewer.sessions.spawned:spawned_rollouts",
                             lister="viewer.sessions.titles:codex"),
        screen="viewer.policy.screens.codex",
        preambles=Preambles.AGENT, threads=Threads.SESSIONS, json_escapes=True),
    Dialect(
        name="goose",
        title="A Goose session store (sessions.db, SQLite): each session, its sub-agents' sessions as threads",
        written_by="Goose (`~/.local/share/goose/sessions/sessions.db`)",
        # A database's tables as the bundle text the viewer reads it as (viewer/bundles): each row a JSON line.
        example='{"bundle": 1, "from": "sqlite", "members": ["#messages", "#schema_version", "#sessions"]}\n'
                '{"member": "#messages", "chars": 272}\n{"id": 1, "session_id": "s1", "role": "user", "content_json": '
                '[{"type": "text", "text": "What is 2+2?"}], "created_timestamp": 1774084442}\n{"id": 2, "session_id": '
                '"s1", "role": "assistant", "content_json": [{"type": "text", "text": "4"}], "created_timestamp": '
                '1774084443}\n\n{"member": "#schema_version", "chars": 16}\n{"version": 17}\n\n{"member": "#sessions", '
                '"chars": 74}\n{"id": "s1", "name": "Sums", "session_type": "user", "working_dir": "/w"}\n\n',
        samples=("goose-*",),
        detection=(Members((r"#sessions$", r"#messages$", r"#schema_version$")),),
        reader="viewer.parse.agents.goose:parse_goose",
        writer=None,
        prompt=OPENAI_CHAT,
        source_lexer="json",
        session=SessionFiles(agent="Goose", folders=("~/.local/share/goose/sessions", "$GOOSE_PATH_ROOT/data/sessions",
                                                     "$XDG_DATA_HOME/goose/sessions"),
                             pattern="sessions.db", database=True),
        screen="viewer.policy.screens.generic",
        preambles=Preambles.AGENT, threads=Threads.SESSIONS, json_escapes=True),
    Dialect(
        name="crush",
        title="A Crush store (.crush/crush.db, SQLite): each session, its agent tool's sessions as threads",
        written_by="Crush (`<project>/.crush/crush.db`; the projects in `~/.local/share/crush/projects.json`)",
        example='{"bundle": 1, "from": "sqlite", "members": ["#goose_db_version", "#messages", "#sessions"]}\n'
                '{"member": "#goose_db_version", "chars": 57}\n{"id": 1, "version_id": 20250424200609, "is_applied": 1}'
                '\n\n{"member": "#messages", "chars": 322}\n{"id": "m1", "session_id": "s1", "role": "user", "parts": '
                '[{"type": "text", "data": {"text": "What is 2+2?"}}], "created_at": 1774084442}\n{"id": "m2", '
                '"session_id": "s1", "role": "assistant", "parts": [{"type": "text", "data": {"text": "4"}}, {"type": '
                '"finish", "data": {"reason": "end_turn"}}], "created_at": 1774084443}\n\n{"member": "#sessions", '
                '"chars": 83}\n{"id": "s1", "parent_session_id": null, "title": "Sums", "created_at": 1774084442}\n\n',
        samples=("crush-*",),
        detection=(Members((r"#sessions$", r"#messages$", r"#goose_db_version$")),),
        reader="viewer.parse.agents.crush:parse_crush",
        writer=None,
        prompt=OPENAI_CHAT,
        source_lexer="json",
        session=SessionFiles(agent="Crush", folders=(".crush", "~/.local/share/crush", "$CRUSH_GLOBAL_DATA"),
                             pattern="crush.db", database=True),
        screen="viewer.policy.screens.generic",
        preambles=Preambles.AGENT, threads=Threads.SESSIONS, json_escapes=True),
    Dialect(
        name="opencode",
        title="OpenCode sessions: an `opencode export`, the storage folder (session, message, part files) or "
              "opencode.db (SQLite); a sub-agent's session (the task tool) a thread",
        written_by="OpenCode (`opencode export`; `~/.local/share/opencode/storage/`, `opencode.db` from 1.2)",
        example='{"info": {"id": "ses_1", "title": "Sums"}, "messages": [{"info": {"id": "msg_1", "sessionID": "ses_1", '
                '"role": "user"}, "parts": [{"id": "prt_1", "type": "text", "text": "What is 2+2?"}]}, {"info": {"id": '
                '"msg_2", "sessionID": "ses_1", "role": "assistant"}, "parts": [{"id": "prt_2", "type": "text", "text": '
                '"4"}]}]}',
        samples=("opencode-*",),
        detection=(JsonKeys(keys=("info", "messages"), patterns=(r'"id"\s*:\s*"ses_',)),
                   Members((r"(?:^|/)session/[^/]+/ses_[^/]+\.json$", r"(?:^|/)message/ses_[^/]+/[^/]+\.json$")),
                   Members((r"#session$", r"#message$", r"#part$"))),
        reader="viewer.parse.agents.opencode:parse_opencode",
        writer=None,
        prompt=OPENAI_CHAT,
        source_lexer="json",
        session=SessionFiles(agent="OpenCode", folders=("~/.local/share/opencode", "$XDG_DATA_HOME/opencode"),
                             pattern="opencode.db", database=True),
        screen="viewer.policy.screens.generic",
        preambles=Preambles.AGENT, threads=Threads.SESSIONS, json_escapes=True),
    Dialect(
        name="cursor",
        title="Cursor's editor chats (state.vscdb, SQLite: composerData and bubbleId keys); a sub-agent's chat "
              "a thread",
        written_by="Cursor (`~/.config/Cursor/User/globalStorage/state.vscdb`, macOS `~/Library/Application "
                   "Support/Cursor/…`)",
        example='{"bundle": 1, "from": "sqlite", "members": ["#cursorDiskKV"]}\n{"member": "#cursorDiskKV", "chars": '
                '302}\n{"key": "composerData:c1", "value": {"composerId": "c1", "name": "Sums", '
                '"fullConversationHeadersOnly": [{"bubbleId": "b1", "type": 1}, {"bubbleId": "b2", "type": 2}]}}\n'
                '{"key": "bubbleId:c1:b1", "value": {"type": 1, "text": "What is 2+2?"}}\n{"key": "bubbleId:c1:b2", '
                '"value": {"type": 2, "text": "4"}}\n\n',
        samples=("cursor-state-*", "cursor-broken-state-*"),
        detection=(Members((r"#cursorDiskKV$",)),),
        reader="viewer.parse.agents.cursor:parse_cursor",
        writer=None,
        prompt=OPENAI_CHAT,
        source_lexer="json",
        session=SessionFiles(agent="Cursor", folders=("~/.config/Cursor/User/globalStorage",
                                                      "~/Library/Application Support/Cursor/User/globalStorage"),
                             pattern="state.vscdb", database=True),
        screen="viewer.policy.screens.generic",
        preambles=Preambles.AGENT, threads=Threads.SESSIONS, json_escapes=True),
    Dialect(
        name="copilot-cli",
        title="A GitHub Copilot CLI session (~/.copilot/session-state/<session>/events.jsonl): reasoning, tool "
              "calls and their results, sub-agents, the session's token totals",
        written_by="GitHub Copilot CLI (`~/.copilot/session-state/<session>/events.jsonl`; the Copilot SDK's "
                   "event stream)",
        example='{"type": "user.message", "data": {"content": "What is 2+2?"}, "id": "e1", '
                '"timestamp": "2026-08-03T10:15:09.799Z", "parentId": null}',
        samples=("copilot-cli-*",),
        # Its tool events would pass for an event stream's `tool.*`: an envelope with a data object wins.
        detection=(JsonLines((Line(type_prefixes=COPILOT_EVENTS, with_all=("id", "timestamp"),
                                   objects=("data",)),)),),
        priority=1,
        reader="viewer.parse.agents.copilot_cli:parse_copilot_cli",
        lines="viewer.parse.agents.copilot_cli:CopilotReader",
        writer=None,
        prompt=OPENAI_CHAT,
        source_lexer="json",
        session=SessionFiles(agent="GitHub Copilot CLI", folders=("~/.copilot/session-state",
                                                                  "$COPILOT_HOME/session-state"),
                             pattern="events.jsonl", lister="viewer.sessions.titles:copilot_cli"),
        screen="viewer.policy.screens.generic",
        preambles=Preambles.AGENT, threads=Threads.SIDE_LINES, json_escapes=True),
    Dialect(
        name="vscode-chat",
        title="A VS Code chat session (GitHub Copilot Chat: chatSessions/<session>.json, or the .jsonl log of its "
              "changes): requests, answers, thinking, tool calls with their arguments and results, sub-agents",
        written_by="VS Code (`~/.config/Code/User/workspaceStorage/<workspace>/chatSessions/<session>.json` or "
                   "`.jsonl`)",
        example='{"version": 3, "responderUsername": "GitHub Copilot", "sessionId": "s1", "requests": '
                '[{"requestId": "r1", "message": {"text": "What is 2+2?"}, "response": [{"value": "4"}]}]}',
        samples=("vscode-chat-*",),
        detection=(JsonKeys(keys=("requests", "responderUsername"), patterns=(r'"version"\s*:\s*3\b',)),
                   JsonKeys(keys=("requests",), patterns=(r'\A\{"kind"\s*:\s*0\s*,\s*"v"\s*:\s*\{',))),
        reader="viewer.parse.agents.vscode_chat:parse_vscode_chat",
        lines="viewer.parse.agents.vscode_chat:VSCodeChatReader",
        writer=None,
        prompt=OPENAI_CHAT,
        source_lexer="json",
        session=SessionFiles(agent="VS Code chat", folders=("~/.config/Code/User/workspaceStorage",
                                                            "~/Library/Application Support/Code/User/workspaceStorage"),
                             pattern="chatSessions/*.json*"),
        screen="viewer.policy.screens.generic",
        preambles=Preambles.AGENT, threads=Threads.SIDE_LINES, json_escapes=True),
    Dialect(
        name="gemini-cli",
        title="A Gemini CLI chat recording (~/.gemini/tmp/<project>/chats/session-*.json, or the .jsonl log of "
              "0.39 and later): thoughts, tool calls and results, rewinds, compression checkpoints",
        written_by="Gemini CLI (`~/.gemini/tmp/<project>/chats/session-*.json` / `.jsonl`)",
        example='{"sessionId": "s1", "projectHash": "3c5e", "startTime": "2026-08-03T16:40:05.219Z", '
                '"lastUpdated": "2026-08-03T16:40:09.039Z", "messages": [{"id": "m1", "timestamp": '
                '"2026-08-03T16:40:05.239Z", "type": "user", "content": [{"text": "What is 2+2?"}]}]}',
        samples=("gemini-cli-*",),
        # The recording's first member names the project by its hash: no other format has that key.
        detection=(JsonKeys(keys=("sessionId", "projectHash", "startTime")),),
        reader="viewer.parse.agents.gemini_cli:parse_gemini_cli",
        lines="viewer.parse.agents.gemini_cli:GeminiCliReader",
        writer=None,
        prompt=OPENAI_CHAT,
        source_lexer="json",
        session=SessionFiles(agent="Gemini CLI", folders=("~/.gemini/tmp", "$GEMINI_CLI_HOME/tmp"),
                             pattern="session-*.json*"),
        screen="viewer.policy.screens.generic",
        preambles=Preambles.AGENT, threads=Threads.OWN_FILES, json_escapes=True),
    Dialect(
        name="antigravity",
        title="An Antigravity CLI transcript (~/.gemini/antigravity-cli/brain/<id>/.system_generated/logs/"
              "transcript.jsonl): steps of requests, responses and tool results",
        written_by="Antigravity CLI and IDE (`~/.gemini/antigravity-cli/brain/<conversation>/.system_generated/"
                   "logs/transcript.jsonl`)",
        example='{"step_index": 0, "source": "USER_EXPLICIT", "type": "USER_INPUT", "status": "DONE", '
                '"created_at": "2026-08-03T18:02:40Z", "content": "<USER_REQUEST>\\nWhat is 2+2?\\n</USER_REQUEST>"}',
        samples=("antigravity-*",),
        detection=(JsonLines((Line(with_all=("step_index", "source"),
                                   test="viewer.parse.agents.antigravity:is_step"),)),),
        reader="viewer.parse.agents.antigravity:parse_antigravity",
        lines="viewer.parse.agents.antigravity:AntigravityReader",
        pairing=Pairing.BY_ORDER,
        writer=None,
        prompt=OPENAI_CHAT,
        source_lexer="json",
        session=SessionFiles(agent="Antigravity", folders=("~/.gemini/antigravity-cli/brain",
                                                           "~/.gemini/antigravity/brain"), pattern="transcript.jsonl"),
        screen="viewer.policy.screens.generic",
        preambles=Preambles.AGENT, json_escapes=True),
    Dialect(
        name="qwen-code",
        title="A Qwen Code session (~/.qwen/projects/<project>/chats/<session>.jsonl): Gemini-style parts in a "
              "uuid/parentUuid tree, tool results, sub-agents",
        written_by="Qwen Code (`~/.qwen/projects/<project>/chats/<session>.jsonl`)",
        example='{"uuid": "u1", "parentUuid": null, "sessionId": "s1", "timestamp": "2026-08-03T19:20:14.662Z", '
                '"type": "user", "cwd": "/w", "version": "0.17.1", "message": {"role": "user", "parts": '
                '[{"text": "What is 2+2?"}]}}',
        samples=("qwen-code-*",),
        # Claude Code's envelope around a Gemini content: told apart by what is inside, before Claude Code's keys.
        detection=(JsonLines((Line(types=("user", "assistant", "tool_result", "system"), with_all=("uuid",),
                                   test="viewer.parse.agents.qwen_code:is_qwen_line"),)),),
        priority=1,
        reader="viewer.parse.agents.qwen_code:parse_qwen_code",
        lines="viewer.parse.agents.qwen_code:QwenCodeReader",
        writer=None,
        prompt=OPENAI_CHAT,
        source_lexer="json",
        session=SessionFiles(agent="Qwen Code", folders=("~/.qwen/projects",), pattern="*.jsonl"),
        screen="viewer.policy.screens.generic",
        preambles=Preambles.AGENT, threads=Threads.SIDE_LINES, json_escapes=True),
    Dialect(
        name="factory-droid",
        title="A Factory Droid session (~/.factory/sessions/<project>/<session>.jsonl): Anthropic messages, tool "
              "results, compaction, sub-agent sessions joined after it",
        written_by="Factory Droid (`~/.factory/sessions/<project>/<session>.jsonl`)",
        example='{"type": "session_start", "id": "s1", "title": "Sums", "version": 2, "cwd": "/w"}\n'
                '{"type": "message", "id": "m1", "timestamp": "2026-03-21T09:14:02.118Z", "message": '
                '{"role": "user", "content": [{"type": "text", "text": "What is 2+2?"}]}}',
        samples=("factory-droid-*",),
        # Its message lines nest a role under `message` like Claude Code's and Pi's: its first line names it.
        detection=(JsonLines((Line(types=("session_start",), with_any=("id", "cwd", "session")),
                              Line(types=("message",), objects=("message",),
                                   test="viewer.parse.agents.factory_droid:is_droid_message"),
                              Line(types=("todo_state", "compaction_state")))),),
        priority=1,
        reader="viewer.parse.agents.factory_droid:parse_factory_droid",
        lines="viewer.parse.agents.factory_droid:DroidReader",
        writer=None,
        prompt=OPENAI_CHAT,
        source_lexer="json",
        session=SessionFiles(agent="Factory Droid", folders=("~/.factory/sessions",), pattern="*.jsonl",
                             lister="viewer.sessions.titles:factory_droid"),
        screen="viewer.policy.screens.generic",
        preambles=Preambles.AGENT, threads=Threads.OWN_FILES, json_escapes=True),
    Dialect(
        name="cursor-agent",
        title="A Cursor agent transcript (~/.cursor/projects/<project>/agent-transcripts/<id>.jsonl): prompts, "
              "answers and tool calls (Cursor records no tool results there)",
        written_by="Cursor's agent CLI and editor (`~/.cursor/projects/<project>/agent-transcripts/<id>/<id>.jsonl`)",
        example='{"role": "user", "message": {"content": [{"type": "text", "text": "<user_query>\\nWhat is 2+2?\\n'
                '</user_query>"}]}}\n{"type": "turn_ended", "status": "success"}',
        samples=("cursor-agent-*",),
        # Its lines have no `type` but the turn markers: told by a role and message at the margin and by what
        # only Cursor writes.
        detection=(JsonKeys(patterns=(r'(?m)^\{"role":\s*"(?:user|assistant)",\s*"message":\s*\{',
                                      r'<user_query>|"type":\s*"turn_ended"')),),
        reader="viewer.parse.agents.cursor_agent:parse_cursor_agent",
        lines="viewer.parse.agents.cursor_agent:CursorAgentReader",
        replies=False,
        writer=None,
        prompt=OPENAI_CHAT,
        source_lexer="json",
        session=SessionFiles(agent="Cursor", folders=("~/.cursor/projects",), pattern="agent-transcripts/*.jsonl"),
        screen="viewer.policy.screens.generic",
        preambles=Preambles.AGENT, json_escapes=True),
    Dialect(
        name="cline",
        title="A Cline task's api_conversation_history.json: tool results and environment details in the user's "
              "turns, XML or native tool calls",
        written_by="Cline (VS Code's globalStorage `saoudrizwan.claude-dev/tasks/<task>/`, `~/.cline/data/tasks/`)",
        example='[{"role": "user", "content": [{"type": "text", "text": "<task>\\nWhat is 2+2?\\n</task>"}], '
                '"ts": 1781170924627}, {"role": "assistant", "content": [{"type": "text", "text": "4"}], '
                '"ts": 1781170929537}]',
        samples=("cline-*-api-history.json",),
        detection=(JsonKeys(keys=("role", "content"), patterns=(JSON_ARRAY, CLINE_HISTORY)),),
        priority=1,
        reader="viewer.parse.agents.cline:parse_cline",
        writer=None,
        prompt=OPENAI_CHAT,
        source_lexer="json",
        session=SessionFiles(agent="Cline", folders=(*vscode_tasks("saoudrizwan.claude-dev"), "~/.cline/data/tasks"),
                             pattern="api_conversation_history.json"),
        screen="viewer.policy.screens.generic",
        preambles=Preambles.AGENT, json_escapes=True),
    Dialect(
        name="roo-code",
        title="A Roo Code task's api_conversation_history.json: Cline's shape with Roo's reasoning blocks, "
              "condensing and sub-tasks",
        written_by="Roo Code (VS Code's globalStorage `rooveterinaryinc.roo-cline/tasks/<task>/`)",
        example='[{"role": "user", "content": [{"type": "text", "text": "<user_message>\\nWhat is 2+2?\\n'
                '</user_message>"}, {"type": "text", "text": "<environment_details>\\n# Current Time\\nCurrent time '
                'in ISO 8601 UTC format: 2026-04-16T12:00:13.551Z\\n</environment_details>"}], "ts": 1776340813545}, '
                '{"role": "assistant", "content": [{"type": "text", "text": "4"}], "ts": 1776340818745}]',
        samples=("roo-code-*-api-history.json",),
        detection=(JsonKeys(keys=("role", "content"), patterns=(JSON_ARRAY, ENVIRONMENT_BLOCK, ROO_ENVIRONMENT)),),
        priority=2,
        reader="viewer.parse.agents.cline:parse_roo_code",
        writer=None,
        prompt=OPENAI_CHAT,
        source_lexer="json",
        session=SessionFiles(agent="Roo Code", folders=vscode_tasks("rooveterinaryinc.roo-cline"),
                             pattern="api_conversation_history.json"),
        screen="viewer.policy.screens.generic",
        preambles=Preambles.AGENT, json_escapes=True),
    Dialect(
        name="kilo-code",
        title="A Kilo Code 4.x or 5.x task's api_conversation_history.json: Roo Code's shape, locked to XML or native "
              "tool calls",
        written_by="Kilo Code 4.x and 5.x (VS Code's globalStorage `kilocode.kilo-code/tasks/<task>/`)",
        example='[{"role": "user", "content": [{"type": "text", "text": "<task>\\nWhat is 2+2?\\n</task>"}, '
                '{"type": "text", "text": "<environment_details>\\n# Current Mode\\n<slug>code</slug>\\n'
                '<tool_format>xml</tool_format>\\n</environment_details>"}], "ts": 1773311045020}, '
                '{"role": "assistant", "content": [{"type": "text", "text": "4"}], "ts": 1773311050320}]',
        samples=("kilo-code-*-api-history.json",),
        detection=(JsonKeys(keys=("role", "content"), patterns=(JSON_ARRAY, ENVIRONMENT_BLOCK, KILO_ENVIRONMENT)),),
        priority=3,
        reader="viewer.parse.agents.cline:parse_kilo_code",
        writer=None,
        prompt=OPENAI_CHAT,
        source_lexer="json",
        session=SessionFiles(agent="Kilo Code", folders=vscode_tasks("kilocode.kilo-code"),
                             pattern="api_conversation_history.json"),
        screen="viewer.policy.screens.generic",
        preambles=Preambles.AGENT, json_escapes=True),
    Dialect(
        name="cline-sdk",
        title="A Cline SDK session's <session>.messages.json (Cline 4.x's SDK bundle, the cline CLI 2.x), or one "
              "of its sub-agents'",
        written_by="Cline's SDK (`~/.cline/data/sessions/<session>/<session>.messages.json`)",
        example='{"version": 1, "updated_at": "2026-07-21T08:24:02.761Z", "agent": "lead", "sessionId": "s1", '
                '"messages": [{"id": "m1", "role": "user", "content": [{"type": "text", "text": "What is 2+2?"}]}, '
                '{"id": "m2", "role": "assistant", "content": [{"type": "text", "text": "4"}], '
                '"modelInfo": {"id": "claude-sonnet-4-6", "provider": "anthropic"}}]}',
        samples=("cline-*-sdk-*.messages.json",),
        detection=(JsonKeys(keys=("version", "sessionId"), arrays=("messages",), patterns=(JSON_OBJECT, SDK_AGENT)),),
        reader="viewer.parse.agents.cline.sdk:parse_cline_sdk",
        writer=None,
        prompt=OPENAI_CHAT,
        source_lexer="json",
        session=SessionFiles(agent="Cline", folders=("~/.cline/data/sessions",), pattern="*.messages.json"),
        screen="viewer.policy.screens.generic",
        preambles=Preambles.AGENT, json_escapes=True),
    Dialect(
        name="cline-ui",
        title="A Cline, Roo Code or Kilo Code task's ui_messages.json read alone: the rows of the agent's chat "
              "panel, with each request's tokens and cost",
        written_by="Cline, Roo Code and Kilo Code (`ui_messages.json` beside the task's API history)",
        example='[{"ts": 1781170923417, "type": "say", "say": "task", "text": "What is 2+2?"}, '
                '{"ts": 1781170924597, "type": "say", "say": "api_req_started", "text": "{\\"tokensIn\\": 12, '
                '\\"tokensOut\\": 1, \\"cost\\": 0.0001}"}, '
                '{"ts": 1781170926467, "type": "say", "say": "completion_result", "text": "4"}]',
        samples=("cline-*-ui-messages.json", "roo-code-*-ui-messages.json", "kilo-code-*-ui-messages.json"),
        detection=(JsonKeys(keys=("ts", "type"), patterns=(UI_ROWS,)),),
        reader="viewer.parse.agents.cline.ui_messages:parse_cline_ui",
        writer=None,
        prompt=OPENAI_CHAT,
        source_lexer="json",
        screen="viewer.policy.screens.generic",
        preambles=Preambles.AGENT, json_escapes=True),
    Dialect(
        name="pi",
        title="A pi coding agent session (~/.pi/agent/sessions/…/*.jsonl): the id/parentId tree of /tree and "
              "/fork, or the older linear layout; compaction, the user's ! commands",
        written_by="pi (`@mariozechner/pi-coding-agent`, `~/.pi/agent/sessions/--<cwd>--/<time>_<uuid>.jsonl`)",
        example='{"type": "session", "version": 3, "id": "6b0f2c9e-41d7-4a8e-9e53-8c1d2f7a90b4", '
                '"timestamp": "2026-03-10T14:02:11.407Z", "cwd": "/w"}\n'
                '{"type": "message", "id": "c81d4e2a", "parentId": null, "timestamp": "2026-03-10T14:02:29.607Z", '
                '"message": {"role": "user", "content": [{"type": "text", "text": "What is 2+2?"}]}}\n',
        samples=("pi-*",),
        detection=(JsonLines((Line(types=("session",), with_all=("id", "timestamp", "cwd"),
                                   without=("message", "payload", "sessionId", "uuid", "role")),
                              Line(types=PI_ENTRIES, with_all=("id", "parentId", "timestamp")))),),
        reader="viewer.parse.agents.pi:parse_pi",
        lines="viewer.parse.agents.pi:PiReader",
        writer=None,
        prompt=OPENAI_CHAT,
        source_lexer="json",
        session=SessionFiles(agent="pi", folders=("~/.pi/agent/sessions", "$PI_CODING_AGENT_DIR/sessions"),
                             pattern="*.jsonl"),
        screen="viewer.policy.screens.generic",
        preambles=Preambles.AGENT, json_escapes=True),
    Dialect(
        name="aider",
        title="Aider's .aider.chat.history.md: what the user typed (`####`), aider's output (`>`), the model's "
              "replies with their SEARCH/REPLACE edits, run after run",
        written_by="Aider (`.aider.chat.history.md` in the repository's root)",
        example="\n# aider chat started at 2026-02-14 09:31:07\n\n#### What is 2+2?  \n\n4\n\n"
                "> Tokens: 2.9k sent, 12 received. Cost: $0.0094 message, $0.0094 session.  \n",
        samples=("aider-*.md",),
        detection=(Opens((r"# aider chat started at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d",)),),
        reader="viewer.parse.agents.aider_chat:parse_aider_chat",
        writer=None,
        prompt=OPENAI_CHAT,
        source_lexer="markdown"),
    Dialect(
        name="aider-llm",
        title="Aider's .aider.llm.history: every request as the model got it (SYSTEM, USER, ASSISTANT lines) and its "
              "answer",
        written_by="Aider with `--llm-history-file` (`.aider.llm.history` is the documented name)",
        example="TO LLM 2026-02-14T09:31:38\n-------\nSYSTEM Act as an expert software developer.\n-------\n"
                "USER What is 2+2?\nLLM RESPONSE 2026-02-14T09:31:46\nASSISTANT 4\n",
        samples=("aider-*.history",),
        detection=(Opens((r"(?:TO LLM|LLM RESPONSE) \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d",)),),
        reader="viewer.parse.agents.aider_llm:parse_aider_llm",
        writer=None,
        prompt=OPENAI_CHAT,
        source_lexer=None),
    Dialect(
        name="kimi-code",
        title="A Kimi Code CLI agent's wire.jsonl (~/.kimi-code/sessions/…/agents/<agent>/wire.jsonl): context "
              "messages and the agent's steps, injected reminders, usage per step; a sub-agent's own wire",
        written_by="Kimi Code CLI (`~/.kimi-code/sessions/<work dir>/<session>/agents/<agent>/wire.jsonl`)",
        example='{"type":"metadata","protocol_version":"1.5","created_at":1787223600000}\n'
                '{"type":"context.append_message","agentId":"main","message":{"role":"user","content":[{"type":'
                '"text","text":"What is 2+2?"}],"toolCalls":[],"origin":{"kind":"user"}},"time":1787223612003}\n',
        samples=("kimi-code-*",),
        detection=(JsonLines((Line(types=("metadata",), with_all=("protocol_version", "created_at")),
                              Line(types=KIMI_CODE_RECORDS, with_all=("time",)))),),
        reader="viewer.parse.agents.kimi_code:parse_kimi_code",
        lines="viewer.parse.agents.kimi_code:KimiCodeReader",
        writer=None,
        prompt=OPENAI_CHAT,
        source_lexer="json",
        session=SessionFiles(agent="Kimi Code", folders=("~/.kimi-code/sessions",), pattern="wire.jsonl"),
        screen="viewer.policy.screens.generic",
        preambles=Preambles.AGENT, json_escapes=True),
    Dialect(
        name="kimi-cli",
        title="A Kimi CLI (Python) wire.jsonl (~/.kimi/sessions/…/wire.jsonl): turns, steps, streamed tool calls, "
              "sub-agents' events as threads",
        written_by="Kimi CLI, the Python one (`~/.kimi/sessions/<work dir hash>/<session>/wire.jsonl`)",
        example='{"type": "metadata", "protocol_version": "1.10"}\n'
                '{"timestamp": 1783050000.1032417, "message": {"type": "TurnBegin", "payload": {"user_input": '
                '"What is 2+2?"}}}\n'
                '{"timestamp": 1783050000.1052418, "message": {"type": "StepBegin", "payload": {"n": 1}}}\n'
                '{"timestamp": 1783050001.6232417, "message": {"type": "ContentPart", "payload": {"type": "text", '
                '"text": "4"}}}\n',
        samples=("kimi-cli-*",),
        detection=(JsonLines((Line(types=("metadata",), with_all=("protocol_version",), without=("created_at",)),)),
                   JsonKeys(keys=("timestamp", "message", "type", "payload"), patterns=(KIMI_CLI_EVENT,))),
        reader="viewer.parse.agents.kimi_cli:parse_kimi_cli",
        lines="viewer.parse.agents.kimi_cli:KimiCliReader",
        writer=None,
        prompt=OPENAI_CHAT,
        source_lexer="json",
        session=SessionFiles(agent="Kimi CLI", folders=("~/.kimi/sessions", "$KIMI_SHARE_DIR/sessions"),
                             pattern="wire.jsonl"),
        screen="viewer.policy.screens.generic",
        preambles=Preambles.AGENT, threads=Threads.SIDE_LINES, json_escapes=True),
    Dialect(
        name="openhands",
        title="An OpenHands conversation's events: V1 event files (`kind`: MessageEvent, ActionEvent, "
              "ObservationEvent …) joined, or V0's event stream and trajectory export (`action` + `args`, "
              "`observation` + `extras`)",
        written_by="OpenHands (the V1 agent SDK and CLI: `~/.openhands/conversations/<id>/events/`; V0: "
                   "`sessions/<id>/events/`, the trajectory download)",
        example='{"kind": "MessageEvent", "id": "e1", "timestamp": "2026-03-21T10:14:02", "source": "user", '
                '"llm_message": {"role": "user", "content": [{"type": "text", "text": "What is 2+2?"}]}}',
        samples=("openhands-*",),
        detection=(JsonKeys(keys=("kind", "source"), patterns=(OPENHANDS_V1_KIND,)),
                   JsonKeys(keys=("source",), patterns=(OPENHANDS_V0_EVENT,)),
                   JsonKeys(objects=("agent", "workspace"), keys=("persistence_dir",),
                            patterns=(r'"usage_to_metrics"\s*:|"execution_status"\s*:',)),
                   Members((r"(?:^|/)events/(?:event-\d{5,}-[^/]+|\d+)\.json$",))),
        reader="viewer.parse.agents.openhands:parse_openhands",
        writer=None,
        prompt=OPENAI_CHAT,
        source_lexer="json",
        session=SessionFiles(agent="OpenHands", folders=("~/.openhands/conversations", "~/.openhands/sessions",
                                                         "/tmp/openhands_file_store/sessions"),
                             pattern="events", joined="viewer.sessions.folders:openhands_archive",
                             lister="viewer.sessions.titles:openhands"),
        screen="viewer.policy.screens.generic",
        preambles=Preambles.AGENT, json_escapes=True),
    Dialect(
        name="swe-agent",
        title="A SWE-agent trajectory (`.traj`, 1.x and 0.x): the history the model saw, the task out of its "
              "instance template, the submission and the exit status",
        written_by="SWE-agent (`trajectories/<user>/<run>/<instance>/<instance>.traj`)",
        example='{"trajectory": [{"action": "submit\\n", "observation": "", "thought": "Done."}], "history": '
                '[{"role": "user", "content": "<pr_description>\\nWhat is 2+2?\\n</pr_description>"}, {"role": '
                '"assistant", "content": "Done.", "thought": "Done.", "action": "submit"}, {"role": "user", '
                '"content": "4"}], "info": {"exit_status": "submitted", "submission": "4"}}',
        samples=("swe-agent-*",),
        # Its `trajectory` comes first: a run still being written may have no `history` yet.
        detection=(JsonKeys(arrays=("trajectory",),
                            patterns=(r'"action"\s*:', r'"observation"\s*:', r'"thought"\s*:')),),
        reader="viewer.parse.agents.swe_agent:parse_swe_agent",
        writer=None,
        prompt=OPENAI_CHAT,
        source_lexer="json",
        session=SessionFiles(agent="SWE-agent", folders=("$SWE_AGENT_TRAJECTORY_DIR", "trajectories"),
                             pattern="*.traj", lister="viewer.sessions.titles:swe_agent"),
        screen="viewer.policy.screens.generic",
        preambles=Preambles.AGENT, json_escapes=True),
    Dialect(
        name="mini-swe-agent",
        title="A mini-swe-agent trajectory (`.traj.json`, formats mini-swe-agent-1 and -1.1): the task out of its "
              "template, format errors and command output as the harness's, the exit status and cost",
        written_by="mini-swe-agent (`~/.config/mini-swe-agent/last_mini_run.traj.json`, "
                   "`<output>/<instance>/<instance>.traj.json`)",
        example='{"info": {"mini_version": "2.1.0", "exit_status": "Submitted", "config": {"agent": '
                '{"instance_template": "{{task}}"}}}, "messages": [{"role": "user", "content": "What is 2+2?"}, '
                '{"role": "exit", "content": "4", "extra": {"exit_status": "Submitted"}}], '
                '"trajectory_format": "mini-swe-agent-1.1"}',
        samples=("mini-swe-agent-*",),
        detection=(JsonKeys(keys=("trajectory_format",), patterns=(r'"trajectory_format"\s*:\s*"mini-swe-agent',)),
                   JsonKeys(objects=("info",), arrays=("messages",), keys=("mini_version",))),
        priority=1,
        reader="viewer.parse.agents.mini_swe_agent:parse_mini_swe_agent",
        writer=None,
        prompt=OPENAI_CHAT,
        source_lexer="json",
        session=SessionFiles(agent="mini-swe-agent", folders=("~/.config/mini-swe-agent",
                                                              "~/Library/Application Support/mini-swe-agent",
                                                              "$MSWEA_GLOBAL_CONFIG_DIR"),
                             pattern="*.traj.json", lister="viewer.sessions.titles:mini_swe_agent"),
        screen="viewer.policy.screens.generic",
        preambles=Preambles.AGENT, json_escapes=True),
    Dialect(
        name="atif",
        title="An ATIF trajectory (Agent Trajectory Interchange Format, `schema_version` ATIF-v1.x): steps with "
              "reasoning, tool calls and their results, metrics; sub-agents embedded or given beside it",
        written_by="Harbor's agent adapters (`jobs/<job>/<trial>/agent/trajectory.json`), NeMo tooling and other "
                   "agents' exporters",
        example='{"schema_version": "ATIF-v1.6", "session_id": "s1", "agent": {"name": "a", "version": "1"}, '
                '"steps": [{"step_id": 1, "source": "user", "message": "What is 2+2?"}, {"step_id": 2, '
                '"source": "agent", "message": "4"}]}',
        samples=("atif-*",),
        detection=(JsonKeys(keys=("schema_version",), patterns=(r'"schema_version"\s*:\s*"ATIF-v1\.',)),),
        priority=1,
        reader="viewer.parse.agents.atif:parse_atif",
        writer=None,
        prompt=OPENAI_CHAT,
        source_lexer="json",
        session=SessionFiles(agent="Harbor (ATIF)", folders=("jobs",), pattern="trajectory.json",
                             lister="viewer.sessions.titles:atif"),
        screen="viewer.policy.screens.generic",
        preambles=Preambles.AGENT, json_escapes=True),
    Dialect(
        name="specstory",
        title="A SpecStory Markdown export (`.specstory/history/*.md`) of a Claude Code, Codex, Cursor or other "
              "agent's session: user and agent turns, `<think>` sections, tool-use blocks",
        written_by="SpecStory's CLI and editor extension (`<project>/.specstory/history/<time>-<slug>.md`)",
        example="<!-- Generated by SpecStory, Markdown v2.1.0 -->\n\n_**User (2026-03-21 09:14:02Z)**_\n\n"
                "What is 2+2?\n\n---\n\n_**Agent (claude-sonnet-4-5 2026-03-21 09:14:06Z)**_\n\n4\n",
        samples=("specstory-*",),
        detection=(Opens((r"<!-- Generated by SpecStory\b",)),),
        reader="viewer.parse.agents.specstory:parse_specstory",
        writer=None,
        prompt=OPENAI_CHAT,
        source_lexer="markdown",
        session=SessionFiles(agent="SpecStory", folders=(".specstory/history",), pattern="*.md",
                             lister="viewer.sessions.titles:specstory"),
        screen="viewer.policy.screens.generic",
        preambles=Preambles.AGENT),
    Dialect(
        name="chatgpt",
        title="A ChatGPT data export (conversations.json): conversations with their branches",
        written_by="ChatGPT's data export (Settings, Data controls: `conversations.json`)",
        example='{"title": "Sums", "create_time": 1700000000.0, "current_node": "b", "mapping": {'
                '"a": {"id": "a", "parent": null, "children": ["b"], "message": {"author": {"role": "user"}, '
                '"content": {"content_type": "text", "parts": ["What is 2+2?"]}}}, '
                '"b": {"id": "b", "parent": "a", "children": [], "message": {"author": {"role": "assistant"}, '
                '"recipient": "all", "content": {"content_type": "text", "parts": ["4"]}}}}}',
        samples=("chatgpt-*",),
        detection=(JsonKeys(objects=("mapping",), keys=("current_node",)),),
        reader="viewer.parse.exports:parse_chatgpt",
        writer=None,
        prompt=OPENAI_CHAT,
        source_lexer="json", json_escapes=True, versions=True),
    Dialect(
        name="claude-ai",
        title="A Claude.ai data export (conversations.json): conversations with their branches",
        written_by="Claude.ai's data export (Settings, Privacy: `conversations.json`)",
        example='{"uuid": "c1", "name": "Sums", "created_at": "2025-01-01T00:00:00Z", "chat_messages": ['
                '{"uuid": "m1", "sender": "human", "text": "What is 2+2?", "content": [{"type": "text", '
                '"text": "What is 2+2?"}], "parent_message_uuid": "00000000-0000-4000-8000-000000000000"}, '
                '{"uuid": "m2", "sender": "assistant", "text": "4", "content": [{"type": "text", "text": "4"}], '
                '"parent_message_uuid": "m1"}]}',
        samples=("claude-ai-*",),
        detection=(JsonKeys(arrays=("chat_messages",), keys=("sender",)),),
        reader="viewer.parse.exports:parse_claude_ai",
        writer=None,
        prompt=OPENAI_CHAT,
        source_lexer="json", json_escapes=True, versions=True),
)

"""Every format the viewer reads, one record each: the dialects an upload is detected as (in the order a person
is offered them), then the JSON shapes the JSON dialect reads (in the order each level tries them). A fact about a
format belongs in its record; code asks the record (viewer/formats/__init__.py), never a table of its own keyed
by a format's name. docs/architecture.md, "How to add a format", says what to write beside a new record.
"""
from __future__ import annotations

from viewer.formats.kinds import (
    AnyJson, AnyText, Dialect, JsonKeys, JsonLines, JsonShape, Level, Line, Opens, Pairing, Preambles, Prompt, SessionFiles,
    Threads, Tokens, Writer, YamlHeader)

HARMONY_MARKS = ("<|start|>", "<|channel|>", "<|message|>")
CHATML_MARKS = ("<|im_start|>", "<|im_end|>", "<|fim_prefix|>", "<|file_separator|>", "<|function_call|>")
CODEX_ROLLOUT = ("session_meta", "response_item", "event_msg", "turn_context", "compacted")
CODEX_EXEC = ("thread.started", "turn.started", "item.started", "item.completed")
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
BAR, BLOCK = "\uff5c", "\u2581"
"""DeepSeek's special tokens are spelled with FULLWIDTH VERTICAL LINE and LOWER ONE EIGHTH BLOCK."""
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
        title="A Claude Code session (~/.claude/projects/…/<session>.jsonl): sub-agents, compaction, rewinds",
        written_by="Claude Code (`~/.claude/projects/<project>/<session>.jsonl`)",
        example='{"type": "user", "uuid": "u1", "parentUuid": null, "sessionId": "s1", '
                '"message": {"role": "user", "content": "What is 2+2?"}}',
        samples=("claude-code-*",),
        detection=(JsonLines((Line(with_any=CLAUDE_CODE_KEYS, without=("role",)),
                              Line(types=("file-history-snapshot",), with_all=("snapshot",)))),),
        reader="viewer.parse.agents:parse_claude_code",
        writer=None,
        prompt=OPENAI_CHAT,
        source_lexer="json",
        session=SessionFiles(agent="Claude Code", folders=("~/.claude/projects", "$CLAUDE_CONFIG_DIR/projects"),
                             pattern="*.jsonl", companions="subagents/*.jsonl", thinned=True,
                             lister="viewer.sessions.titles:claude_code"),
        preambles=Preambles.AGENT, threads=Threads.SIDE_LINES, json_escapes=True),
    Dialect(
        name="codex",
        title="A Codex CLI rollout (~/.codex/sessions/…/rollout-*.jsonl) or a `codex exec --json` stream",
        written_by="Codex CLI (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`, `codex exec --json`)",
        example='{"timestamp": "2025-09-14T09:00:00Z", "type": "response_item", "payload": {"type": "message", '
                '"role": "user", "content": [{"type": "input_text", "text": "What is 2+2?"}]}}',
        samples=("codex-*",),
        detection=(JsonLines((Line(types=CODEX_ROLLOUT, objects=("payload",)), Line(types=CODEX_EXEC))),),
        reader="viewer.parse.agents:parse_codex",
        writer=None,
        prompt=OPENAI_CHAT,
        source_lexer="json",
        session=SessionFiles(agent="Codex", folders=("~/.codex/sessions", "~/.codex/archived_sessions",
                                                     "$CODEX_HOME/sessions", "$CODEX_HOME/archived_sessions"),
                             pattern="*.jsonl", thinned=True, lister="viewer.sessions.titles:codex"),
        preambles=Preambles.AGENT, json_escapes=True),
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
                            patterns=(r'"usage_to_metrics"\s*:|"execution_status"\s*:',))),
        reader="viewer.parse.agents.openhands:parse_openhands",
        writer=None,
        prompt=OPENAI_CHAT,
        source_lexer="json",
        session=SessionFiles(agent="OpenHands", folders=("~/.openhands/conversations", "~/.openhands/sessions",
                                                         "/tmp/openhands_file_store/sessions"),
                             pattern="events", joined="viewer.sessions.folders:openhands_bytes",
                             lister="viewer.sessions.titles:openhands"),
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
        source_lexer="json", json_escapes=True),
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
        source_lexer="json", json_escapes=True),
)

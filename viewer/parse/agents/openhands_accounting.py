"""What the OpenHands reader (openhands.py) reads of each event, and what else it keeps of it: the accounting rule
(docs/architecture.md, "Nothing lost") for V1's events by their `kind`, V0's by their `action` or `observation`,
and the conversation's state files. Each plan is the dotted paths read (or shown in another form) and the top-level
members whose rest, less what is read, is kept: in the details of the event's first message, or, for an event that
gives no message, in the header's `bookkeeping`. What neither names is kept in the header's `unread`."""
from __future__ import annotations

from typing import Any, NamedTuple

from viewer.parse.agents.lines import Claims, claims, unclaimed

V1_ENVELOPE = ("id", "timestamp", "source", "kind", "parent_id")
V0_ENVELOPE = ("id", "timestamp", "source", "cause", "action", "observation")
REASONING = ("reasoning_content", "reasoning", "thinking_blocks", "responses_reasoning_item")
"""Where a model message keeps its reasoning (pieces.reasoning)."""
MODEL_RESPONSE = ("tool_call_metadata.tool_call_id", "tool_call_metadata.function_name",
                  "tool_call_metadata.model_response.id", "tool_call_metadata.model_response.model",
                  "tool_call_metadata.model_response.usage", "tool_call_metadata.model_response.choices")
"""What a V0 agent action's model response gives: its call's id and tool, the response's id, model, usage and
message (its reasoning, text and calls)."""


class Plan(NamedTuple):
    read: tuple[str, ...]
    """Dotted paths the reader reads, or shows in another form (an id, a copy of what another event holds)."""
    kept: tuple[str, ...]
    """Top-level members whose rest, less what `read` names, is kept (details, or the header)."""
    quiet: bool = False
    """An event that gives no message: what is kept goes to the header's `bookkeeping`."""


V1_PLANS = {
    "SystemPromptEvent": Plan(("system_prompt.text", "dynamic_context.text", "tools"),
                              ("system_prompt", "dynamic_context")),
    "MessageEvent": Plan(("llm_message.content", "llm_message.role", *(f"llm_message.{key}" for key in REASONING),
                          "extended_content", "llm_response_id"), ("llm_message", "activated_skills", "sender")),
    "ActionEvent": Plan(("thought", *REASONING, "tool_name", "tool_call_id", "tool_call.arguments", "tool_call.name",
                         "tool_call.id", "llm_response_id", "action.kind", "action.message"),
                        ("action", "tool_call", "security_risk", "summary")),
    "ObservationEvent": Plan(("tool_name", "tool_call_id", "action_id", "observation.content",
                              "observation.is_error", "observation.kind"), ("observation",)),
    "AgentErrorEvent": Plan(("error", "tool_name", "tool_call_id", "action_id"), ()),
    "UserRejectObservation": Plan(("rejection_reason", "tool_name", "tool_call_id", "action_id"), ()),
    "Condensation": Plan(("summary", "forgotten_event_ids", "llm_response_id"), ("summary_offset",)),
    "CondensationSummaryEvent": Plan(("summary",), ()),
    "ConversationErrorEvent": Plan(("detail", "error", "code"), ()),
    **dict.fromkeys(("PauseEvent", "InterruptEvent", "ConversationStateUpdateEvent", "ConversationTitleEvent",
                     "HookExecutionEvent"), Plan((), ("*",), quiet=True)),
    **dict.fromkeys(("TokenEvent", "LLMCompletionLogEvent", "StreamingDeltaEvent", "CondensationRequest"),
                    Plan(("*",), ())),
}
"""V1 events by kind. A state update, a title, a hook's run and a pause are kept in the header; token ids, the
raw completion logs, streamed deltas and a condensation's request repeat what the messages hold (or are opaque
numbers): read as frame."""

V0_ACTIONS = {
    "system": Plan(("args.content", "args.tools", "args.openhands_version", "args.agent_class"), ("message", "args")),
    "condensation": Plan(("args",), ("message",)),
    **dict.fromkeys(("recall", "change_agent_state", "null"), Plan((), ("*",), quiet=True)),
}
V0_AGENT_ACTION = Plan(("args.content", "args.thought", "args.final_thought", "args.outputs", "args.reason",
                        "llm_metrics.accumulated_cost", *MODEL_RESPONSE),
                       ("message", "args", "timeout", "llm_metrics", "tool_call_metadata"))
"""A V0 action the agent made: a call (its arguments the model's, else its `args`), its message or its answer."""
V0_USER_MESSAGE = Plan(("args.content", "args.image_urls"), ("message", "args"))
V0_OBSERVATIONS = {
    "agent_state_changed": Plan(("extras.agent_state", "extras.reason"), ("*",), quiet=True),
    "null": Plan((), ("*",), quiet=True),
    "recall": Plan(("extras",), ("message", "content")),
    "condense": Plan(("content",), ("message", "extras")),
}
V0_OBSERVATION = Plan(("content", "success", "tool_call_metadata"), ("message", "extras"))
"""A V0 observation: a call's reply (its `tool_call_metadata` repeats its call's)."""

STATE = Plan(("id", "execution_status", "agent.llm.model", "workspace.working_dir", "stats"), ("*",))
"""`base_state.json`: the rest is the header's `state`."""
METADATA = Plan(("title", "llm_model", "selected_repository", "created_at", "conversation_id"), ("*",))
"""V0's `metadata.json`: the rest is the header's `metadata`."""


def family(value: dict[str, Any]) -> tuple[str, Any]:
    """What an object of a conversation is: (`v1`, its kind), (`action`, its action), (`observation`, its
    observation), (`state`, None), (`metadata`, None), or (`unknown`, what it names itself)."""
    kind = value.get("kind")
    if isinstance(kind, str) and "timestamp" in value or isinstance(kind, str) and kind.endswith(
            ("Event", "Observation", "Condensation")):
        return "v1", kind
    if isinstance(value.get("action"), str) and ("args" in value or "id" in value):
        return "action", value["action"]
    if isinstance(value.get("observation"), str) and ("extras" in value or "id" in value):
        return "observation", value["observation"]
    if isinstance(value.get("agent"), dict) and ("execution_status" in value or "stats" in value):
        return "state", None
    if isinstance(value.get("conversation_id"), str) and ("title" in value or "llm_model" in value):
        return "metadata", None
    return "unknown", kind if isinstance(kind, str) else value.get("action", value.get("observation"))


def plan_of(value: dict[str, Any]) -> tuple[Plan | None, tuple[str, ...]]:
    """The plan of an event, or of a state file, and its envelope's paths; None for an event the reader shows
    whole (of a kind it does not know)."""
    what, kind = family(value)
    if what == "v1":
        return V1_PLANS.get(kind), V1_ENVELOPE
    if what == "action":
        if kind == "message" and value.get("source") == "user":
            return V0_USER_MESSAGE, V0_ENVELOPE
        return V0_ACTIONS.get(kind, V0_AGENT_ACTION), V0_ENVELOPE
    if what == "observation":
        return V0_OBSERVATIONS.get(kind, V0_OBSERVATION), V0_ENVELOPE
    if what in ("state", "metadata"):
        return (STATE if what == "state" else METADATA), ()
    return None, V1_ENVELOPE


def claimed(plan: Plan | None, envelope: tuple[str, ...]) -> Claims:
    """What the reader reads of an object by its plan, or keeps of it (only its envelope when it has none)."""
    if plan is not None and "*" in plan.kept:
        return claims("*")
    return claims(*envelope, *(plan.read + plan.kept if plan is not None else ()))


def kept(value: dict[str, Any], plan: Plan | None, envelope: tuple[str, ...]) -> dict[str, Any]:
    """What the plan keeps of an object: its kept members less what is read of them (of all of it, its envelope
    aside, for `*`)."""
    if plan is None or not plan.kept:
        return {}
    read = claims(*envelope, *plan.read) if "*" in plan.kept else claims(*plan.read)
    held = value if "*" in plan.kept else {key: value[key] for key in plan.kept if key in value}
    return unclaimed(held, read)

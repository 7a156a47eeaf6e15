"""`parse()` of this tree beside `parse()` of another checkout (the code before a speed change), in one process,
on the same generated inputs: ChatML, OpenAI chat JSON, the Responses API, Anthropic Messages, ShareGPT and a
dataset (JSON Lines of conversations), all the conversations of tests/harness/formats.py; and the API records'
and the frameworks' shapes of bench/parse.py (tests/harness/api_formats.py, tests/harness/framework_shapes.py).

Run: `git worktree add --detach /tmp/base <commit>` then
`.venv/bin/python bench/versus.py --base /tmp/base [--megabytes 30] [--runs 3]`.

Both trees' `viewer` packages are imported, each under its own set of `sys.modules` entries, which are put in
place before each of its runs (a function that imports at call time finds its own tree). The runs alternate
between the two, so both see the same load on a shared machine; the best of each is shown, with the ratio, and
both must give the same parse. Times are this process's CPU time (`time.process_time`): on a machine shared
with other work, waiting for a core is not the parser's time.
"""
from __future__ import annotations

import argparse
import gc
import hashlib
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.harness.api_formats import SHAPES as API_SHAPES  # noqa: E402
from tests.harness.formats import TOOL, chatml, conversations, openai_json  # noqa: E402
from tests.harness.framework_shapes import SHAPES as FRAMEWORK_SHAPES  # noqa: E402


def load_parse(tree: Path):
    """`viewer.parse.parse` of the tree, and the `sys.modules` entries of its `viewer` package."""
    for name in [name for name in sys.modules if name == "viewer" or name.startswith("viewer.")]:
        del sys.modules[name]
    sys.path.insert(0, str(tree))
    try:
        from viewer.parse import parse
    finally:
        sys.path.remove(str(tree))
    found = Path(sys.modules["viewer"].__file__).resolve()
    if tree.resolve() not in found.parents:  # no `viewer` there: the import fell back to another tree
        raise SystemExit(f"bench/versus.py: {tree} holds no viewer package (imported {found} instead)")
    return parse, {name: module for name, module in sys.modules.items()
                   if name == "viewer" or name.startswith("viewer.")}


def responses(megabytes: float) -> str:
    items = []
    for conversation in conversations(megabytes, 0, 7):
        for message in conversation:
            role, content = message["role"], message.get("content")
            if message.get("reasoning_content"):
                items.append({"type": "reasoning", "summary": [
                    {"type": "summary_text", "text": message["reasoning_content"]}]})
            if role == "tool":
                items.append({"type": "function_call_output", "call_id": message["tool_call_id"], "output": content})
                continue
            if content:
                kind = "output_text" if role == "assistant" else "input_text"
                items.append({"type": "message", "role": role, "content": [{"type": kind, "text": content}]})
            for call in message.get("tool_calls") or ():
                items.append({"type": "function_call", "call_id": call["id"], "name": call["function"]["name"],
                              "arguments": call["function"]["arguments"]})
    return json.dumps({"input": items, "tools": [dict(type="function", **TOOL["function"])]}, ensure_ascii=False)


def anthropic(megabytes: float) -> str:
    messages, system = [], None
    for conversation in conversations(megabytes, 0, 7):
        for message in conversation:
            role, content = message["role"], message.get("content")
            if role == "system":
                system = system or content
            elif role == "user":
                messages.append({"role": "user", "content": content})
            elif role == "tool":
                messages.append({"role": "user", "content": [
                    {"type": "tool_result", "tool_use_id": message["tool_call_id"], "content": content}]})
            else:
                blocks = [{"type": "thinking", "thinking": message["reasoning_content"], "signature": "c2ln"}]
                blocks += [{"type": "text", "text": content}] if content else []
                blocks += [{"type": "tool_use", "id": call["id"], "name": call["function"]["name"],
                            "input": json.loads(call["function"]["arguments"])}
                           for call in message.get("tool_calls") or ()]
                messages.append({"role": "assistant", "content": blocks})
    return json.dumps({"system": system, "messages": messages}, ensure_ascii=False)


def sharegpt(megabytes: float) -> str:
    speakers = {"system": "system", "user": "human", "assistant": "gpt", "tool": "observation"}
    turns = []
    for conversation in conversations(megabytes, 0, 7):
        for message in conversation:
            for call in message.get("tool_calls") or ():
                function = call["function"]
                turns.append({"from": "function_call", "value": json.dumps(
                    {"name": function["name"], "arguments": json.loads(function["arguments"])})})
            if message.get("content"):
                turns.append({"from": speakers[message["role"]], "value": message["content"]})
    return json.dumps({"conversations": turns}, ensure_ascii=False)


def dataset(megabytes: float) -> str:
    return "".join(json.dumps({"messages": conversation}, ensure_ascii=False) + "\n"
                   for conversation in conversations(megabytes, 0, 7))


INPUTS = {"chatml": chatml, "openai chat json": openai_json, "responses": responses, "anthropic": anthropic,
          "sharegpt": sharegpt, "dataset (jsonl)": dataset, **API_SHAPES, **FRAMEWORK_SHAPES}


def outline(transcript) -> str:
    """What both trees must agree on: the whole parse, as JSON (its classes differ between the trees)."""
    parts = [transcript, *transcript.conversations] if transcript.conversations else [transcript]
    return hashlib.sha256(json.dumps([t.to_json() for t in parts], ensure_ascii=False).encode()).hexdigest()


def best(runs: int, trees: list[tuple], text: str) -> list[tuple[float, str]]:
    """Best CPU time of each tree's `parse(text)`, the runs alternating between the trees."""
    times, outlines = [float("inf")] * len(trees), [""] * len(trees)
    for _ in range(runs):
        for which, (parse, modules) in enumerate(trees):
            sys.modules.update(modules)
            gc.collect()
            started = time.process_time()
            transcript = parse(text)
            times[which] = min(times[which], time.process_time() - started)
            if len(outlines[which]) == 0:  # once: it takes longer than the parse
                outlines[which] = outline(transcript)
            del transcript
    return list(zip(times, outlines))


def _unpacked_size(parse, data: str | bytes) -> int:
    """The size of the text parsed: an archive's (Inspect's .eval) is what it unpacks to, as in bench/parse.py."""
    return len((parse(data).source if isinstance(data, bytes) else data).encode("utf-8"))


def main() -> None:
    arguments = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arguments.add_argument("--base", type=Path, required=True, help="the other checkout's root")
    arguments.add_argument("--megabytes", type=float, default=30.0)
    arguments.add_argument("--runs", type=int, default=3)
    arguments.add_argument("--only", nargs="*", choices=sorted(INPUTS), default=sorted(INPUTS))
    options = arguments.parse_args()
    trees = [load_parse(options.base), load_parse(ROOT)]
    print(f"{'input':<26} {'MB':>6} {'base MB/s':>10} {'this MB/s':>10} {'ratio':>6}")
    for name, make in INPUTS.items():
        if name not in options.only:
            continue
        text = make(options.megabytes)
        size = _unpacked_size(trees[1][0], text) / 1_000_000
        (base, base_outline), (this, this_outline) = best(options.runs, trees, text)
        same = "" if base_outline == this_outline else "  DIFFERENT RESULTS"
        print(f"{name:<26} {size:6.1f} {size / base:10.1f} {size / this:10.1f} {base / this:5.2f}x{same}")
    print("load average:", Path("/proc/loadavg").read_text().split()[:3])


if __name__ == "__main__":
    main()

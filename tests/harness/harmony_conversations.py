"""The conversations and completions that tests/harness/harmony_reference.py gives to openai-harmony.

Each conversation is a function of the `openai_harmony` module (imported only by the script that runs them), in
the shapes gpt-oss writes (openai-harmony's docs/format.md): system messages with reasoning effort, dates and
built-in tools; developer messages with instructions and function tools; several turns of analysis and final
answers; preambles; tool calls with `json` and `<|constrain|>json`; tool replies; named users; built-in tool
calls on the analysis channel.
"""
from __future__ import annotations

WEATHER = {"type": "object", "properties": {
    "location": {"type": "string", "description": "City name, optionally with country code, e.g. \"Porto, PT\""},
    "unit": {"type": "string", "enum": ["celsius", "fahrenheit"], "default": "celsius"}},
    "required": ["location"]}
AIR = {"type": "object", "properties": {"location": {"type": "string"}}, "required": ["location"]}


def _say(h, role, text, channel=None):
    message = h.Message.from_role_and_content(role, text)
    return message.with_channel(channel) if channel else message


def _assistant(h, channel, text):
    return _say(h, h.Role.ASSISTANT, text, channel)


def _call(h, tool, arguments, content_type="<|constrain|>json"):
    call = _assistant(h, "commentary", arguments).with_recipient(f"functions.{tool}")
    return call.with_content_type(content_type) if content_type else call


def _reply(h, tool, text, channel="commentary"):
    author = h.Author.new(h.Role.TOOL, tool)
    return h.Message.from_author_and_content(author, text).with_recipient("assistant").with_channel(channel)


def _system(h, effort="MEDIUM", date="2025-08-12"):
    content = h.SystemContent.new().with_reasoning_effort(getattr(h.ReasoningEffort, effort))
    return h.Message.from_role_and_content(h.Role.SYSTEM, content.with_conversation_start_date(date))


def _developer(h, instructions, tools=()):
    content = h.DeveloperContent.new().with_instructions(instructions)
    if tools:
        content = content.with_function_tools([h.ToolDescription.new(*tool) for tool in tools])
    return h.Message.from_role_and_content(h.Role.DEVELOPER, content)


def three_turns(h):
    """Three questions, each answered after analysis: earlier analysis goes once a final answer stands."""
    messages = [_system(h, "LOW")]
    for question, thought, answer in (
            ("What is 2 + 2?", "Simple arithmetic.", "2 + 2 = 4."),
            ("And times 3?", "4 * 3 = 12.", "12."),
            ("Write it in Roman numerals.", "12 is XII.", "**XII**")):
        messages += [_say(h, h.Role.USER, question), _assistant(h, "analysis", thought),
                     _assistant(h, "final", answer)]
    return messages


def weather_tools(h):
    """gpt-oss's weather conversation: preamble, two calls, a reply and a tool error, then a second turn."""
    tools = [("get_weather", "Gets the current weather and today's forecast for a city.", WEATHER),
             ("get_air_quality", "Gets the air quality index for a city.", AIR)]
    return [
        _system(h), _developer(h, "You help travellers plan their day. Say where a figure came from.", tools),
        _say(h, h.Role.USER, "I'm cycling from Porto to Vila do Conde this afternoon. Weather and air?"),
        _assistant(h, "analysis", "Two independent tools, both for Porto. Tell them, then call both."),
        _assistant(h, "commentary", "Checking the forecast and air quality for Porto now."),
        _call(h, "get_weather", '{"location": "Porto, PT", "unit": "celsius"}', "json"),
        _call(h, "get_air_quality", '{"location": "Porto, PT"}'),
        _reply(h, "functions.get_weather", '{"temperature": 23, "wind_kmh": 28, "wind_dir": "NW"}'),
        _reply(h, "functions.get_air_quality", '{"ok": false, "error": "sensor network did not answer"}'),
        _assistant(h, "analysis", "NW wind is a headwind going north. Air quality failed; say so."),
        _assistant(h, "final", "## Porto\n\n| Temperature | **23 °C** |\n| --- | --- |\n\nA headwind north."),
        _say(h, h.Role.USER, "And in Lisbon tomorrow?"),
        _assistant(h, "analysis", "Call get_weather for Lisbon."),
        _call(h, "get_weather", '{"location": "Lisbon, PT"}'),
        _reply(h, "functions.get_weather", '{"temperature": 27, "wind_kmh": 9}'),
        _assistant(h, "analysis", "Warm and calm."),
        _assistant(h, "final", "Lisbon: 27 °C and a light breeze."),
    ]


def builtin_tools(h):
    """Browser and python tools declared in the system message; calls on the analysis channel."""
    system = h.SystemContent.new().with_browser_tool().with_python_tool().with_knowledge_cutoff("2024-06")
    return [
        h.Message.from_role_and_content(h.Role.SYSTEM, system.with_conversation_start_date("2025-06-28")),
        _say(h, h.Role.USER, "What is the 20th Fibonacci number? Check the OEIS too."),
        _assistant(h, "analysis", "Compute it with python first."),
        _assistant(h, "analysis", "def fib(n):\n    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n"
                   "    return a\nprint(fib(20))").with_recipient("python").with_content_type("code"),
        _reply(h, "python", "6765\n", "analysis"),
        _assistant(h, "analysis", '{"query": "Fibonacci numbers OEIS A000045"}')
        .with_recipient("browser.search").with_content_type("json"),
        _reply(h, "browser.search", "【0†A000045 - OEIS†oeis.org】\nL0: Fibonacci numbers: F(n) = F(n-1) + F(n-2)",
               "analysis"),
        _assistant(h, "final", "F(20) = **6765** (OEIS A000045)."),
        _say(h, h.Role.USER, "Thanks!"),
        _assistant(h, "final", "You're welcome."),
    ]


def ongoing_analysis(h):
    """A call being resolved: the last assistant message is not final, so nothing is dropped."""
    return [
        _system(h, "HIGH"),
        _developer(h, "Answer in French.", [("lookup", "Looks a word up.", AIR)]),
        _say(h, h.Role.USER, "Bonjour"),
        _assistant(h, "analysis", "Greet back."),
        _assistant(h, "final", "Bonjour !"),
        _say(h, h.Role.USER, "Que veut dire « Porto » ?"),
        _assistant(h, "analysis", "Look it up."),
        _call(h, "lookup", '{"location": "Porto"}', None),
        _reply(h, "functions.lookup", "port (harbour)"),
        _assistant(h, "analysis", "It means harbour."),
        _assistant(h, "final", "« Porto » veut dire « port »."),
    ]


def named_and_plain(h):
    """Named users, a developer message without tools, a message on no channel, analysis between finals."""
    return [
        _system(h, "LOW", "2025-01-01"),
        _developer(h, "Be terse."),
        h.Message.from_author_and_content(h.Author.new(h.Role.USER, "alice"), "Hi, I'm Alice."),
        _assistant(h, None, "Hello Alice."),
        h.Message.from_author_and_content(h.Author.new(h.Role.USER, "bob"), "And I'm Bob. Summarise <this>."),
        _assistant(h, "analysis", "Two users now."),
        _assistant(h, "final", "Hello Bob.\n\n```python\nprint('x')\n```\n"),
        _say(h, h.Role.USER, "Again?"),
        _assistant(h, "analysis", "Repeat."),
        _assistant(h, "final", "Hello again — 你好 🙂"),
    ]


def channel_less_calls(h):
    """A call and a reply on no channel, their content types after the recipient, and bodies that spell control
    tokens (ordinary text to the model)."""
    lookup = [("lookup", "Looks a term up.", AIR)]
    reply = h.Message.from_author_and_content(h.Author.new(h.Role.TOOL, "functions.lookup"), '{"found": true}')
    return [
        _system(h), _developer(h, "Explain Harmony tokens.", lookup),
        _say(h, h.Role.USER, "What does <|constrain|> do after <|channel|>commentary?"),
        _assistant(h, None, '{"location": "<|constrain|>"}').with_recipient("functions.lookup").with_content_type("json"),
        reply.with_recipient("assistant").with_content_type("<|constrain|>json"),
        _assistant(h, "analysis", "Explain: <|constrain|>json binds the content type."),
        _assistant(h, "final", "`<|constrain|>json` says the body must be JSON; `<|channel|>` names the channel."),
        _say(h, h.Role.USER, "Thanks"),
        _assistant(h, "final", "Welcome."),
    ]


CONVERSATIONS = {function.__name__: function for function in (
    three_turns, weather_tools, builtin_tools, ongoing_analysis, named_and_plain, channel_less_calls)}

PRIMED_TEXTS = {
    # openai-harmony tests/test_harmony.py, test_streamable_parser_missing_message_token
    "missing_message_token": (
        "I must refuse<|end|>"
        "<|start|>assistant<|channel|>analysis<|message|>We must refuse<|end|>"
        "<|start|>assistant<|channel|>final<|message|>I'm sorry, but I can't help with that.<|return|>"),
    # … test_streamable_parser_missing_message_token_other_initial_headers
    "missing_message_token_other_initial_headers": (
        "<|channel|>analysis I must refuse<|end|>"
        "<|start|>assistant<|channel|>analysis<|message|>We must refuse<|end|>"
        "<|start|>assistant<|channel|>final<|message|>I'm sorry, but I can't help with that.<|return|>"),
    # … test_streamable_parser_missing_message_token_tool_call
    "missing_message_token_tool_call": (
        "... Let's use the tool.<|end|>"
        "<|start|>assistant to=functions.get_weather<|channel|>commentary json"
        '<|message|>{"location": "Tokyo"}<|call|>'),
    # src/tests.rs, test_missing_message_token_requires_non_strict_mode
    "missing_message_token_requires_non_strict_mode": "<|channel|>commentary Hello<|end|>",
    # the same kind, on the other channels and stop tokens
    "final_channel_then_return": "<|channel|>final I cannot help with that.<|return|>",
    "commentary_then_a_full_message": (
        "<|channel|>commentary Looking it up now.<|end|>"
        "<|start|>assistant<|channel|>final<|message|>Found it.<|return|>"),
    "a_full_primed_header": "<|channel|>analysis<|message|>Thinking.<|end|>",
}

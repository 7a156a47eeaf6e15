"""Raw prompts of the open model families, as their chat templates write them: Llama 3.x, Gemma (and
FunctionGemma), Mistral, DeepSeek and Phi.

What they share is here once: a family's marker tokens are a grammar (turns.py) that cuts the text into turns,
and its body reader makes each turn into messages (build.py) with the shared toolkit (toolkit.py: reasoning,
calls, replies, tool definitions; calls.py: calls written as code). Each family's module holds its grammar
and its body reader, and says in its docstring what it reads.
"""
from viewer.parse.templates.deepseek import parse_deepseek
from viewer.parse.templates.gemma import parse_gemma
from viewer.parse.templates.llama3 import parse_llama3
from viewer.parse.templates.mistral import parse_mistral
from viewer.parse.templates.phi import parse_phi

__all__ = ["parse_deepseek", "parse_gemma", "parse_llama3", "parse_mistral", "parse_phi"]

"""The stylesheet of what viewer.render draws beside highlighted code: a tool's output as a terminal (its colours,
viewer/render/terminal.py), diffs and arguments that wrap, an agent's screen lines (the default view's calls), the
files-changed page and costs. Served with Pygments' rules (`highlight.stylesheet`), and inlined into HTML exports
with them: classes only, never `style=`."""
from __future__ import annotations

from viewer.render.terminal import palette_css

READING = """
pre.code.terminal, pre.code.wrapped { white-space: pre-wrap; overflow-wrap: anywhere; max-width: 100%; }
pre.code.terminal { background: var(--surface-2); }
.diff-path { font-family: var(--mono); font-weight: 600; }
.said-lines { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: .35rem; width: 100%; }
.said { font-size: .9rem; color: var(--text); }
.said-line { font-family: var(--mono); overflow-wrap: anywhere; }
.said-bullet { color: var(--final); }
.said-failed .said-bullet, .said-rejected .said-bullet, .said-interrupted .said-bullet { color: var(--error); }
.said-waiting .said-bullet { color: var(--muted); }
.said-tool { font-weight: 700; }
.said-target { background: none; padding: 0; }
.said-outcome, .said-items { color: var(--muted); font-family: var(--mono); margin: .05rem 0 0 1.3rem; }
.said-items { list-style: none; padding: 0; }
.said-failed .said-outcome, .said-rejected .said-outcome, .said-interrupted .said-outcome { color: var(--error); }
.said-interruption .said-tool { color: var(--error); font-weight: 600; }
.said-question .said-items, .said-list .said-items { color: var(--text); }
.said-text { margin: .3rem 0 0 1.3rem; padding: .4rem .8rem; border-left: 3px solid var(--commentary);
  background: var(--commentary-soft); border-radius: 4px; }
.entry.said-marker { display: block; padding: .3rem 1.1rem; }
.badge.said-badge { color: var(--error); border: 1px solid var(--error); }
.entry.tool-failed { border-left: 3px solid var(--error); }
.said-debug { font-size: .85rem; color: var(--muted); margin: .2rem 0; overflow-wrap: anywhere; }
.said-debug-label { font-weight: 600; }
.thread-id { font-size: .75em; color: var(--muted); }
.changes-list { list-style: none; padding: 0; }
.change-file { margin: 1.2rem 0; border: 1px solid var(--border); border-radius: var(--radius); background: var(--surface); }
.change-file > header { padding: .5rem .9rem; border-bottom: 1px solid var(--border); display: flex; gap: .6rem;
  flex-wrap: wrap; align-items: baseline; }
.change-action { font-size: .75rem; font-weight: 700; text-transform: uppercase; letter-spacing: .04em; }
.change-create .change-action { color: var(--final); }
.change-delete .change-action { color: var(--error); }
.change-edit .change-action { color: var(--commentary); }
.change-step { padding: .3rem .9rem .6rem; border-top: 1px dashed var(--border); }
.change-step:first-of-type { border-top: none; }
.change-step.change-failed { background: var(--analysis-soft); }
.change-meta { font-size: .85rem; color: var(--muted); margin: .2rem 0; }
.costs { font-size: .9rem; }
.costs table { border-collapse: collapse; margin: .3rem 0; }
.costs th, .costs td { text-align: right; padding: .1rem .6rem; border-bottom: 1px solid var(--border); }
.costs th:first-child, .costs td:first-child { text-align: left; }
.costs .table-scroll { max-width: 100%; overflow-x: auto; }
.cost-unknown { color: var(--warning); }
"""


def reading_css() -> str:
    return READING + palette_css()

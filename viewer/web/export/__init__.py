"""Exports of what a reader may see: one view of a transcript (or of every conversation of a dataset) as one
Markdown file, one self-contained HTML file, or the JSON twin.

The writers (`markdown`, `html`, and `viewer.web.json_twin`) read a `Document` of projected entries
(`document`), never a store or a parse: the web app builds one from stored windows (`stored`), the command line
from a fresh parse (`parsed`), and `formats` names each format's writer, media type and file name. They live in
the web package because they draw the page's own cards and templates."""

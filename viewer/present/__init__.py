"""The present stage: what a reader may see, drawn, without a web server. Flask-free, so that the command line
(`viewer render`) exports exactly what the web app's download links do without importing the app.

- `cards`: a window of projected entries to cards, one per thing a page draws, bodies rendered safely;
- `document`: a `Document`, one view of a transcript (or of every conversation of a dataset) as the writers
  read it, with the `Rows` protocol its entries come from: the store's (`stored`) or a fresh parse's (`parsed`);
- the three writers: `json_twin`, `markdown` and `html` (one self-contained file), named by `formats`;
- `comparison`: two stored transcripts side by side, a page of aligned rows at a time (the alignment itself is
  the compare stage's);
- `templates` (the one Jinja set-up the web app and the HTML export share) and `links` (what the card macros link
  to: the server's URLs, or anchors inside a file)."""

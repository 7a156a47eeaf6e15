"""The web app's pages, one blueprint per family: `uploads` (home, form, API), `reading` (a transcript's views,
windows, jumps and long bodies), `search` (search inside a transcript), `exports` (the JSON twin and the raw
bytes), `media` (a transcript's pasted images), `manage` (the uploader's page), `personal` (the uploader's
choices about personal data and redactions, on the manage page and through the API), `yours` (this browser's
uploads listed, acted on and searched across), `compare` (two transcripts side by side), `context` (what the
model saw when it sampled a message), `changes` (the files an agent session changed), `live` (appending to a live
upload, and its page's event stream), `processing` (the page and progress stream of an upload answered before it
was processed) and `operations` (`/healthz`).
"""
from viewer.web.views import (changes, compare, context, exports, live, manage, media, operations, personal,
                              processing, reading, search, uploads, yours)

BLUEPRINTS = (uploads.bp, reading.bp, search.bp, exports.bp, media.bp, manage.bp, compare.bp, context.bp, changes.bp,
              live.bp, processing.bp, operations.bp, yours.bp, personal.bp)

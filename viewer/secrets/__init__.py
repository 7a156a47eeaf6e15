"""Secrets in transcripts: API keys pasted into prompts, tokens in tool arguments, private keys an agent read.

`scan_text` finds them in a text (detect-secrets' plugins, our patterns for the LLM providers' keys it lacks,
and values after token-ish names when random enough), `scan_transcript` in every field of a transcript that a
link holder could see, `mask` replaces them by `[secret: KIND]` in a text and `mask_transcript` in a whole
transcript (source, fields and offsets), and `diagnostics` reports them as `W-SECRET` without ever repeating
one. It reads only the model.
"""
from viewer.secrets.finding import Finding, mask, preview
from viewer.secrets.masking import Masker, mask_transcript
from viewer.secrets.scan import KINDS, scan_text
from viewer.secrets.transcript import FieldSecret, count_kinds, diagnostic, diagnostics, scan_transcript

__all__ = ["KINDS", "FieldSecret", "Finding", "Masker", "count_kinds", "diagnostic", "diagnostics", "mask",
           "mask_transcript", "preview", "scan_text", "scan_transcript"]

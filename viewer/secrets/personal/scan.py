"""`scan_personal`: the personal data in a text, with exact offsets, found as secrets are (viewer/secrets/scan.py):
anchors in one pass, each recogniser run on the windows of the lines around its anchors, overlapping hits
resolved to one finding named by the most certain recogniser."""
from __future__ import annotations

import bisect
from typing import Iterator

from viewer.secrets.detectors import Detector, Hit
from viewer.secrets.finding import Finding
from viewer.secrets.personal.kinds import placeholder
from viewer.secrets.personal.anchors import find_anchors
from viewer.secrets.personal.recognisers import RECOGNISERS
from viewer.secrets.scan import Hits, resolve, scan_text, windows


def scan_personal(text: str) -> list[Finding]:
    """Every piece of personal data in the text, in order, as exact character offsets."""
    hits: Hits = [(offset + hit.start, offset + hit.end, recogniser.rank, hit.kind)
                  for recogniser, offset, hit in _recognise(text)]
    return [Finding(start, end, kind, placeholder(kind, text[start:end]), text[start:end])
            for start, end, kind in resolve(hits)]


def _recognise(text: str) -> Iterator[tuple[Detector, int, Hit]]:
    """Every recogniser's hits, each with its window's offset; a window repeated is judged once. Recognisers
    with the same anchors and reach share their windows (three of them look around the same digits).

    A window is judged with the character on each side of it, which the patterns' look-arounds read and no hit
    may take: a window cut inside a word or a run of digits (an id before a phone number's anchor) does not make
    a number of the digits it starts or ends with."""
    anchors = find_anchors(text)
    shared: dict[tuple[tuple[str, ...], int, int], list[tuple[int, int]]] = {}
    for recogniser in RECOGNISERS:
        key = (recogniser.anchors, recogniser.before, recogniser.reach)
        if key not in shared:
            positions = sorted({at for name in recogniser.anchors for at in anchors[name]})
            shared[key] = windows(text, positions, recogniser.before, recogniser.reach)
        judged: dict[str, list[Hit]] = {}
        for start, end in shared[key]:
            lead = 1 if start else 0
            window = text[start - lead:end + 1]
            hits = judged.get(window)
            if hits is None:
                inside = end - start + lead
                hits = judged[window] = [hit for hit in recogniser.find(window)
                                         if hit.start >= lead and hit.end <= inside]
            for hit in hits:
                yield recogniser, start - lead, hit


def scan_with_secrets(text: str) -> list[Finding]:
    """The secrets and the personal data in the text, in order; personal data inside a secret is the secret's
    (a key's digits are no phone number)."""
    secrets = scan_text(text)
    personal = scan_personal(text)
    if not secrets or not personal:
        return secrets or personal
    starts = [finding.start for finding in secrets]
    kept = []
    for finding in personal:
        number = bisect.bisect_right(starts, finding.end - 1) - 1
        if number < 0 or secrets[number].end <= finding.start:
            kept.append(finding)
    return sorted([*secrets, *kept], key=lambda finding: finding.start)

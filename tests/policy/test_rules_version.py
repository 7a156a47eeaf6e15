"""POLICY_VERSION moves with the rule table: stored decisions are made again only when it is bumped."""
from __future__ import annotations

import hashlib
import json

from tests.conftest import SAMPLES
from viewer import parse, policy

DIGESTS = {"1": "91583b29d81aa807070109f98f4a3b4f6f5d33c1021c86a2e2ccfed1eed4b799"}
"""Each POLICY_VERSION with the digest of the table's decisions on every sample. A change to the rules changes
the digest: bump POLICY_VERSION and add a line (the failure message prints the digest); never edit a line."""


def _decisions_digest() -> str:
    digest = hashlib.sha256()
    for path in sorted(SAMPLES.iterdir()):
        projection = policy.Projection.of(parse(path.read_bytes()))
        rows = [[rule.name, rule.show_as, rule.reason] for rule in projection.rules]
        digest.update(path.name.encode() + json.dumps(rows).encode())
    return digest.hexdigest()


def test_the_policy_version_is_bumped_when_its_decisions_change():
    digest = _decisions_digest()
    assert DIGESTS.get(policy.POLICY_VERSION) == digest, (
        f"the policy's decisions changed: bump POLICY_VERSION and add its digest {digest} to DIGESTS in {__file__}")

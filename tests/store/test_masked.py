"""What the store keeps of an upload with secrets: masked rows for every reader, the rows as written only when
asked for by name, a masked raw text beside the raw bytes, and the findings. On SQLite and PostgreSQL."""
from __future__ import annotations

import json


from tests.secrets.canaries import canaries
from viewer import ingest

GITHUB = next(canary.secret for canary in canaries(seed=5) if canary.secret.startswith("ghp_"))
LABEL = "[secret: GitHub token]"
HARMONY = (f"<|start|>user<|message|>Deploy with {GITHUB} please<|end|>"
           f"<|start|>assistant<|channel|>analysis<|message|>They gave {GITHUB}.<|end|>"
           "<|start|>assistant<|channel|>final<|message|>Deployed.<|return|>").encode()


def test_rows_are_masked_unless_the_rows_as_written_are_asked_for(store):
    record = ingest.store_upload(store, HARMONY, id="with-secret")
    assert record.secret_kinds == {"GitHub token": 2} and record.secret_count == 2 and not record.secrets_unmasked
    shown = store.window("with-secret", "debug", 0, 10)
    assert [entry.message.content for entry in shown] == [f"Deploy with {LABEL} please", f"They gave {LABEL}.",
                                                          "Deployed."]
    assert all(GITHUB not in entry.source for entry in shown)
    written = store.window("with-secret", "debug", 0, 10, unmasked=True)
    assert [entry.message.content for entry in written][:2] == [f"Deploy with {GITHUB} please", f"They gave {GITHUB}."]
    assert GITHUB in written[0].source and written[2] == shown[2]  # a row masking left alone is read once
    assert store.entry("with-secret", 1).message.content == f"They gave {LABEL}."
    assert store.entry("with-secret", 1, unmasked=True).message.content == f"They gave {GITHUB}."
    assert [entry.message.content for entry in store.iter_entries("with-secret", "default")] == [
        f"Deploy with {LABEL} please", "Deployed."]


def test_link_holders_download_the_masked_text_and_the_raw_bytes_stay_as_uploaded(store):
    ingest.store_upload(store, HARMONY, id="with-secret")
    assert store.raw("with-secret") == HARMONY
    shared = store.secrets.shared_raw("with-secret").decode()
    assert GITHUB not in shared and shared.count(LABEL) == 2
    ingest.store_upload(store, b"<|start|>user<|message|>hello<|end|>", id="without")
    assert store.secrets.shared_raw("without") == store.raw("without")


def test_findings_name_their_message_and_never_hold_the_secret(store):
    ingest.store_upload(store, HARMONY, id="with-secret")
    findings = store.secrets.findings("with-secret")
    assert [(conversation, found.diagnostic.message_index) for conversation, found in findings] == [(None, 0),
                                                                                                  (None, 1)]
    assert all(GITHUB[4:-4] not in found.diagnostic.message for _, found in findings)


def test_a_datasets_conversations_are_masked_and_unmasked_with_it(store):
    lines = "\n".join(json.dumps({"messages": [{"role": "user", "content": f"key {GITHUB} number {number}"},
                                              {"role": "assistant", "content": "ok"}]}) for number in range(3))
    record = ingest.store_upload(store, lines.encode(), id="dataset")
    assert record.secret_count == 3
    conversation = store.conversation("dataset", 2)
    assert conversation.secret_count == 3
    assert store.window(conversation.id, "debug", 0, 5)[0].message.content == f"key {LABEL} number 2"
    assert store.window(conversation.id, "debug", 0, 5, unmasked=True)[0].message.content == f"key {GITHUB} number 2"
    assert [found.diagnostic.message_index for _, found in store.secrets.findings("dataset")] == [0, 0, 0]
    store.secrets.set_unmasked("dataset", True)
    assert store.get("dataset").secrets_unmasked and store.conversation("dataset", 1).secrets_unmasked


def test_deleting_forgets_the_masked_text_and_the_rows_as_written(store):
    ingest.store_upload(store, HARMONY, id="with-secret")
    store.delete("with-secret")
    assert store.secrets.shared_raw("with-secret") is None
    assert store.window("with-secret", "debug", 0, 10, unmasked=True) == []


def test_parsing_again_keeps_the_masking(store):
    record = ingest.store_upload(store, HARMONY, id="with-secret")
    ingest.reparse(store, record)
    assert store.window("with-secret", "debug", 0, 1)[0].message.content == f"Deploy with {LABEL} please"
    assert store.window("with-secret", "debug", 0, 1, unmasked=True)[0].message.content == f"Deploy with {GITHUB} please"

"""Write what the viewer answers for every sample into a folder, to compare two versions of the code byte for
byte (`diff -r before after`): a refactoring that changes no behaviour leaves no difference.

For each file of sample_transcripts/: `viewer render` in both views, every format, masked and with secrets
shown, and `viewer convert` to every target; then, through the web app on a fresh SQLite database with the
samples preloaded, every page a reader of the sample can open (both views, the JSON twins, the exports, the raw
bytes, each message's source, each assistant message's context, a search, a compare), as the status line, the
headers that do not change from run to run, and the body. Run: `python bench/snapshot.py OUT`.
"""
from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import re
import sys
import tempfile
from unittest import mock
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from viewer import cli  # noqa: E402
from viewer.write import TARGETS  # noqa: E402

SAMPLES = ROOT / "sample_transcripts"
UPLOADS = {
    "secrets.json": json.dumps({"system": "Deploy key: ghp_" + "Ab3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dF3hJ5",
                                "messages": [
        {"role": "user", "content": "Why does `aws s3 ls` fail? My env has AWS_ACCESS_KEY_ID=AKIA" + "Z3MNQ7RT4VWXY2B5"
                                    " and password = 'hunter2-but-longer'."},
        {"role": "assistant", "content": [
            {"type": "thinking", "thinking": "The user pasted a key.", "signature": "c2ln"},
            {"type": "tool_use", "id": "toolu_1", "name": "bash", "input": {"command": "env | grep AWS"}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1",
                                      "content": "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCY" + "EXAMPLEKEY"}]},
        {"role": "assistant", "content": "Rotate that key: **never** paste it."}]}, indent=1).encode(),
    "dataset.jsonl": (SAMPLES / "json-dataset-finetune.jsonl").read_bytes(),
}
VARYING_HEADERS = {"Date", "Set-Cookie", "Vary"}
_TIME = re.compile(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:\+00:00| UTC|Z)?")
"""When a sample was stored: the one thing that differs from run to run."""
_CSRF = re.compile(r'(name="csrf" value=")[^"]+|(csrf-token" content=")[^"]+')


def cli_outputs(out: Path) -> None:
    for sample in sorted(SAMPLES.iterdir()):
        for view in ("default", "debug"):
            for form in ("html", "md", "json"):
                for shown in (False, True):
                    args = ["render", str(sample), "--view", view, "--format", form]
                    name = f"{sample.name}.{view}{'.secrets' if shown else ''}.{form}"
                    _run(out / "render" / name, args + (["--show-secrets"] if shown else []))
        for target in TARGETS:
            _run(out / "convert" / f"{sample.name}.{target}", ["convert", str(sample), "--to", target])


def _run(path: Path, args: list[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        code = cli.main(args)
    path.write_text(f"exit {code}\n{stderr.getvalue()}---\n{stdout.getvalue()}", encoding="utf-8")


def web_outputs(out: Path) -> None:
    from viewer.web import create_app

    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"DATABASE": f"{folder}/viewer.sqlite3", "SECRET_KEY": "snapshot", "TESTING": True})
        client = app.test_client()
        store = app.extensions["viewer.store"]
        for id in sorted(record.id for record in store.samples()):
            for url in _urls(store, id):
                _save(out / "web" / id / _file_name(url), client.get(url))
        for name, data in UPLOADS.items():
            _uploaded_outputs(out, store, client, name, data)


def _uploaded_outputs(out: Path, store, client, sample: str, data: bytes) -> None:
    """An upload as its uploader reads it (secrets shown in the debug view) and as a link holder does."""
    with _counted_tokens():
        answer = client.post("/api/transcripts?debug=allow", data=data,
                             headers={"Content-Type": "application/octet-stream"})
    _save(out / "web" / f"upload-{sample}" / "answer", answer)
    id = answer.get_json()["id"]
    _save(out / "web" / f"upload-{sample}" / "manage", client.get(answer.get_json()["manage_url"]))
    stranger = client.application.test_client()
    for url in _urls(store, id):
        _save(out / "web" / f"upload-{sample}" / f"owner-{_file_name(url.replace(id, 'ID'))}", client.get(url))
        _save(out / "web" / f"upload-{sample}" / f"holder-{_file_name(url.replace(id, 'ID'))}", stranger.get(url))


_TOKENS = iter(range(10**6))


@contextlib.contextmanager
def _counted_tokens():
    """Share ids and keys made in order, so that two runs make the same ones."""
    with mock.patch("secrets.token_urlsafe", lambda size=32: f"{next(_TOKENS):0{size * 4 // 3 + 1}d}"[-22:]
                    if size == 16 else f"key{next(_TOKENS):040d}"):
        yield


def _urls(store, id: str) -> list[str]:
    record = store.get(id)
    bases = [f"/t/{id}"] + [f"/t/{id}/c/{k}" for k in range(min(record.conversation_count or 0, 3))]
    urls = [f"/t/{id}/raw", f"/t/{id}/manage", f"/compare/{id}/{id}"]
    for base in bases:
        for view in ("", "?view=debug"):
            urls += [base + view, f"{base}.json{view}", f"{base}.md{view}", f"{base}.html{view}",
                     f"{base}/search?q=the{view.replace('?', '&')}", f"{base}/window?start=0{view.replace('?', '&')}",
                     f"{base}/compare{view}"]
        for index in range(min(record.message_count if base == bases[0] else 4, 12)):
            urls += [f"{base}/messages/{index}?view=debug", f"{base}/context/{index}"]
    return urls


def _file_name(url: str) -> str:
    return re.sub(r"[^A-Za-z0-9._=-]+", "_", url.strip("/"))


def _save(path: Path, response) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    headers = "".join(f"{name}: {value}\n" for name, value in sorted(response.headers.items())
                      if name not in VARYING_HEADERS)
    data = response.get_data()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:  # an image or a raw upload that is not text: its digest stands for it
        text = f"(binary, {len(data)} bytes, sha256 {hashlib.sha256(data).hexdigest()})"
    body = _CSRF.sub(lambda match: (match.group(1) or match.group(2)) + "…", text)
    body = _TIME.sub("TIME", body)
    path.write_text(f"{response.status}\n{headers}\n{body}", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--only", choices=("cli", "web"))
    args = parser.parse_args()
    if args.only != "web":
        cli_outputs(args.out)
    if args.only != "cli":
        web_outputs(args.out)
    print(f"wrote {sum(1 for path in args.out.rglob('*') if path.is_file())} files under {args.out}")


if __name__ == "__main__":
    main()

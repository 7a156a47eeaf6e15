"""Build a sample of Cursor's global state.vscdb (~/.config/Cursor/User/globalStorage/state.vscdb on Linux,
~/Library/Application Support/Cursor/User/globalStorage/state.vscdb on macOS) with the real schema and one agent chat.

    python3 make_cursor_state_vscdb.py OUT.vscdb            # the full sample
    python3 make_cursor_state_vscdb.py OUT.vscdb --broken   # damaged: a bubble cut short, a header with no bubble row

Both tables are key/value stores; every chat value is a JSON text. Keys:
  composerData:<composerId>                 one chat (headers list the bubbles in order)
  bubbleId:<composerId>:<bubbleId>          one message ("bubble"): type 1 user, 2 assistant
  messageRequestContext:<composerId>:<bubbleId>   the context Cursor injected into that request
Stdlib only; the file is built fresh each run.
"""
import json
import os
import sys
import sqlite3

SCHEMA = """
CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
"""
COMPOSER = "7f3c2a91-5e4d-4b8a-9c6f-1d2e3f4a5b6c"
SUBCOMPOSER = "b2d4f6a8-0c1e-4a3b-8d5f-7e9a1c3b5d7f"
ROOT = "/home/ana/src/shop"
RATES = ROOT + "/shop/rates.py"
T0 = 1785766802417  # 2026-08-03T14:20:02.417Z


def iso(ms):
    import datetime
    moment = datetime.datetime.fromtimestamp(ms / 1000, datetime.timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def js(value):
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def bubble(bubble_id, kind, at, **fields):
    """A bubble as the editor stores it: a long run of (mostly empty) context arrays, then the content."""
    value = {"_v": 3, "type": kind, "approximateLintErrors": [], "lints": [], "codebaseContextChunks": [],
             "commits": [], "pullRequests": [], "attachedCodeChunks": [], "assistantSuggestedDiffs": [],
             "gitDiffs": [], "interpreterResults": [], "images": [], "attachedFolders": [], "attachedFoldersNew": [],
             "bubbleId": bubble_id, "userResponsesToSuggestedCodeBlocks": [], "suggestedCodeBlocks": [],
             "diffsForCompressingFiles": [], "relevantFiles": [], "toolResults": [], "notepads": [],
             "capabilities": [], "multiFileLinterErrors": [], "diffHistories": [], "recentLocationsHistory": [],
             "recentlyViewedFiles": [], "isAgentic": True, "fileDiffTrajectories": [], "existedSubsequentTerminalCommand": False,
             "existedPreviousTerminalCommand": False, "docsReferences": [], "webReferences": [], "aiWebSearchResults": [],
             "requestId": fields.pop("requestId", "9a1c3e5f-7b2d-4f6a-8c0e-2d4f6a8c0e1b"), "attachedHumanChanges": False,
             "summarizedComposers": [], "cursorRules": [], "contextPieces": [], "editTrailContexts": [],
             "allThinkingBlocks": [], "diffsSinceLastApply": [], "deletedFiles": [], "supportedTools": [],
             "tokenCount": {"inputTokens": 0, "outputTokens": 0}, "attachedFileCodeChunksMetadataOnly": [],
             "consoleLogs": [], "uiElementPicked": [], "isRefunded": False, "knowledgeItems": [],
             "documentationSelections": [], "externalLinks": [], "useWeb": False, "projectLayouts": [],
             "unifiedMode": 2, "capabilityContexts": [], "todos": [], "createdAt": iso(at)}
    value.update(fields)
    return value


def tool(bubble_id, at, name, tool_number, call_id, raw_args, params, result, status="completed", decision=None,
         done_ms=400, **extra):
    data = {"tool": tool_number, "toolIndex": 0, "modelCallId": call_id + "-0", "toolCallId": call_id,
            "status": status, "rawArgs": js(raw_args), "name": name, "params": js(params)}
    if result is not None:
        data["result"] = js(result)
    data["additionalData"] = {}
    if decision:
        data["userDecision"] = decision
    if status in ("completed", "error", "cancelled"):
        extra["completedAtMs"] = at + done_ms
    return bubble(bubble_id, 2, at, text="", capabilityType=15, toolFormerData=data, **extra)


THINK = ("Python's round() does banker's rounding; the user wants half up. CANARY-THINK-CURSOR-5a2c "
         "Read rates.py before changing it.")
EDIT_ARGS = {"file_path": RATES, "old_string": "    return round(amount * RATES[currency], 2)",
             "new_string": "    # CANARY-ARGS-CURSOR-8d14\n"
                           "    return (amount * RATES[currency]).quantize(Decimal(\"0.01\"), rounding=ROUND_HALF_UP)"}
RATES_TEXT = ("from decimal import Decimal\n\nRATES = {\"EUR\": Decimal(\"1.0\"), \"USD\": Decimal(\"1.0874\")}\n\n\n"
              "def convert(amount, currency):\n    # CANARY-TOOLOUT-CURSOR-e6b0\n    return round(amount * RATES[currency], 2)\n")

MAIN = [
    bubble("0b1d3f5a-7c9e-4b2d-8f4a-6c8e0a2c4e61", 1, T0,
           text="Fix the rounding in shop/rates.py so convert() rounds half up to cents, then run the tests.",
           richText=js({"root": {"children": [{"children": [{"detail": 0, "format": 0, "mode": "normal", "style": "",
                                                              "text": "Fix the rounding in shop/rates.py so convert() rounds half up to cents, then run the tests.",
                                                              "type": "text", "version": 1}],
                                               "direction": "ltr", "format": "", "indent": 0, "type": "paragraph",
                                               "version": 1}], "direction": "ltr", "format": "", "indent": 0,
                                 "type": "root", "version": 1}}),
           modelInfo={"modelName": "claude-4.5-sonnet-thinking"}, context={"fileSelections": [{"uri": {
               "$mid": 1, "fsPath": RATES, "external": "file://" + RATES, "path": RATES, "scheme": "file"}}],
               "selections": [], "terminalSelections": [], "mentions": {}},
           workspaceUris=["file://" + ROOT]),
    bubble("1c2e4a6b-8d0f-4c3e-9a5b-7d9f1b3d5f72", 2, T0 + 1900, text="", thinking={
        "text": THINK, "signature": "EoYECkYIBxgCKkDx0pQ7mZ2hV9sRkL3cB8tN1yW5gJ6fE4aU0iO2qH7nM9vT3lX8eK1dC5bF0rY6wZ4jP2sA7oG9uIhS"},
           thinkingDurationMs=2140),
    bubble("2d3f5b7c-9e1a-4d4f-8b6c-8e0a2c4e6a83", 2, T0 + 2300, text="I'll read the rates module first."),
    tool("3e4a6c8d-0f2b-4e5a-9c7d-9f1b3d5f7b94", T0 + 2500, "read_file_v2", 40, "toolu_01Xk4Vb7Nc0Md3Lf6Hg9Jq2W",
         {"target_file": RATES, "should_read_entire_file": True}, {"targetFile": RATES, "effectiveUri": "file://" + RATES},
         {"contents": RATES_TEXT, "totalLinesInFile": 8}),
    bubble("4f5b7d9e-1a3c-4f6b-8d8e-0a2c4e6a8ca5", 2, T0 + 4100,
           text="`round()` rounds half to even; I'll switch to `Decimal.quantize` with `ROUND_HALF_UP`."),
    tool("5a6c8e0f-2b4d-4a7c-9e9f-1b3d5f7a9db6", T0 + 4300, "search_replace", 38, "toolu_01Yl5Wc8Od1Ne4Mg7Ih0Kr3X",
         EDIT_ARGS, {"relativeWorkspacePath": "shop/rates.py", "oldString": EDIT_ARGS["old_string"],
                     "newString": EDIT_ARGS["new_string"]},
         {"diff": {"chunks": [{"diffString": "-    return round(amount * RATES[currency], 2)\n+    return (amount * RATES[currency]).quantize(Decimal(\"0.01\"), rounding=ROUND_HALF_UP)",
                               "oldStart": 8, "newStart": 8, "oldLines": 1, "newLines": 2, "linesAdded": 2,
                               "linesRemoved": 1}]}, "isApplied": True}, decision="accepted"),
    tool("6b7d9f1a-3c5e-4b8d-8f0a-2c4e6a8c0ec7", T0 + 6900, "run_terminal_command_v2", 15, "toolu_01Zm6Xd9Pe2Of5Nh8Ji1Ls4Y",
         {"command": "python -m pytest -q tests/test_rates.py", "is_background": False,
          "explanation": "Run the rates tests"},
         {"command": "python -m pytest -q tests/test_rates.py", "cwd": ROOT, "isBackground": False},
         {"output": "E   NameError: name 'ROUND_HALF_UP' is not defined\n1 failed, 3 passed in 0.21s", "exitCode": 1,
          "rejected": False, "notInterrupted": True}, done_ms=1480),
    tool("7c8e0a2b-4d6f-4c9e-9a1b-3d5f7a9c1fd8", T0 + 9200, "task_v2", 48, "toolu_01An7Ye0Qf3Pg6Oi9Kj2Mt5Z",
         {"description": "Review rates change", "prompt": "Review shop/rates.py for rounding and import bugs.",
          "subagent_type": "generalPurpose", "readonly": True},
         {"description": "Review rates change", "subagentType": "generalPurpose", "subComposerId": SUBCOMPOSER},
         {"result": "One bug: ROUND_HALF_UP is used but not imported.", "subComposerId": SUBCOMPOSER}, done_ms=5100),
    tool("8d9f1b3c-5e7a-4d0f-8b2c-4e6a8c0e2ae9", T0 + 14600, "search_replace", 38, "toolu_01Bo8Zf1Rg4Qh7Pj0Lk3Nu6A",
         {"file_path": RATES, "old_string": "from decimal import Decimal",
          "new_string": "from decimal import ROUND_HALF_UP, Decimal"},
         {"relativeWorkspacePath": "shop/rates.py"}, {"isApplied": True}, decision="accepted"),
    bubble("9e0a2c4d-6f8b-4e1a-9c3d-5f7a9c1e3bfa", 2, T0 + 16900,
           text="Fixed: `convert()` now rounds half up to cents (2.675 EUR becomes 2.68) and the missing import is added.",
           tokenCount={"inputTokens": 24518, "outputTokens": 602}, usageUuid="c0e2a4b6-8d1f-4a3c-9e5b-7d9f1b3d5f00"),
    bubble("a0b2c4d6-e8f0-4a1b-8c3d-5e7f9a1b3c5d", 1, T0 + 190000, text="Also add a test for negative amounts",
           requestId="b1c3e5a7-9d2f-4b4d-8f6a-0b2d4f6a8c31", modelInfo={"modelName": "claude-4.5-sonnet-thinking"}),
    tool("b1c3d5e7-f9a1-4b2c-9d4e-6f8a0b2c4d6e", T0 + 192300, "read_file_v2", 40, "toolu_01Cp9Ag2Sh5Ri8Qk1Ml4Ov7B",
         {"target_file": ROOT + "/tests/test_rates.py"}, {"targetFile": ROOT + "/tests/test_rates.py"}, None,
         status="cancelled", requestId="b1c3e5a7-9d2f-4b4d-8f6a-0b2d4f6a8c31"),
    bubble("c2d4e6f8-a0b2-4c3d-8e5f-7a9b1c3d5e7f", 2, T0 + 195100, text="",
           errorDetails={"message": "Connection failed. If the problem persists, please check your internet connection or VPN",
                         "error": "ERROR_UNAVAILABLE"}, requestId="b1c3e5a7-9d2f-4b4d-8f6a-0b2d4f6a8c31"),
]
SUB = [
    bubble("d3e5f7a9-b1c3-4d4e-9f6a-8b0c2d4e6f80", 1, T0 + 9300,
           text="Review shop/rates.py for rounding and import bugs."),
    tool("e4f6a8b0-c2d4-4e5f-8a7b-9c1d3e5f7a91", T0 + 10400, "read_file_v2", 40, "toolu_01Dq0Bh3Ti6Sj9Rl2Nm5Pw8C",
         {"target_file": RATES}, {"targetFile": RATES}, {"contents": "from decimal import Decimal\n...", "totalLinesInFile": 9}),
    bubble("f5a7b9c1-d3e5-4f6a-9b8c-0d2e4f6a8ba2", 2, T0 + 13900,
           text="One bug: ROUND_HALF_UP is used but not imported.", tokenCount={"inputTokens": 6120, "outputTokens": 88}),
]


def composer(composer_id, name, bubbles, status, created, updated, **extra):
    value = {"_v": 13, "composerId": composer_id, "richText": "", "hasLoaded": True, "text": "",
             "fullConversationHeadersOnly": [
                 {"bubbleId": b["bubbleId"], "type": b["type"], **({"serverBubbleId": "srv-" + b["bubbleId"][:8]}
                                                                    if b["type"] == 2 else {})} for b in bubbles],
             "conversationMap": {}, "status": status, "context": {"composers": [], "quotes": [], "selectedCommits": [],
                                                                  "selectedPullRequests": [], "selectedImages": [],
                                                                  "folderSelections": [], "fileSelections": [],
                                                                  "selections": [], "terminalSelections": [],
                                                                  "selectedDocs": [], "externalLinks": [],
                                                                  "cursorRules": [], "mentions": {}},
             "generatingBubbleIds": [], "isReadingLongFile": False, "codeBlockData": {}, "originalFileStates": {},
             "newlyCreatedFiles": [], "newlyCreatedFolders": [], "lastUpdatedAt": updated, "createdAt": created,
             "hasChangedContext": False, "capabilities": [], "name": name, "unifiedMode": "agent",
             "forceMode": "edit", "isAgentic": True, "modelConfig": {"modelName": "claude-4.5-sonnet-thinking",
                                                                     "maxMode": False},
             "subComposerIds": [], "workspaceIdentifier": {"id": "5b1d3c7e9f0a2b4c6d8e0f1a3b5c7d9e",
                                                            "uri": {"$mid": 1, "fsPath": ROOT, "external": "file://" + ROOT,
                                                                    "path": ROOT, "scheme": "file"}},
             "totalLinesAdded": 3, "totalLinesRemoved": 2, "filesChangedCount": 1,
             "contextTokensUsed": 24518, "contextTokenLimit": 200000}
    value.update(extra)
    return value


REQUEST_CONTEXT = {
    "terminalFiles": [], "cursorRules": [{"name": "python-style", "description": "House Python style",
                                          "body": "Use Decimal for money. CANARY-ENV-CURSOR-1f93"}],
    "attachedFoldersListDirResults": [], "summarizedComposers": [],
    "gitStatusRaw": "## fix/rounding\n M shop/rates.py\n",
    "projectLayouts": [js({"rootPath": ROOT, "childrenDirs": [{"relPath": "shop"}, {"relPath": "tests"}],
                           "childrenFiles": [{"name": "pyproject.toml"}]})],
    "todos": [], "knowledgeItems": []}


def build(path, broken=False):
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    db.executescript(SCHEMA)
    main = composer(COMPOSER, "Fix rounding in rates.convert", MAIN, "aborted", T0 - 3100, T0 + 195100,
                    subComposerIds=[SUBCOMPOSER])
    sub = composer(SUBCOMPOSER, "Review rates change", SUB, "completed", T0 + 9300, T0 + 13900)
    rows = [("composerData:" + COMPOSER, js(main)), ("composerData:" + SUBCOMPOSER, js(sub))]
    rows += [(f"bubbleId:{COMPOSER}:{b['bubbleId']}", js(b)) for b in MAIN]
    rows += [(f"bubbleId:{SUBCOMPOSER}:{b['bubbleId']}", js(b)) for b in SUB]
    rows.append((f"messageRequestContext:{COMPOSER}:{MAIN[0]['bubbleId']}", js(REQUEST_CONTEXT)))
    rows.append(("checkpointId:" + COMPOSER + ":" + MAIN[5]["bubbleId"],
                 js({"files": [], "nonExistentFiles": [], "newlyCreatedFolders": [], "activeInlineDiffs": [],
                     "inlineDiffNewlyCreatedResources": {"files": [], "folders": []}})))
    if broken:
        # a crash mid-write: one bubble's JSON cut short, and the last header pointing at a row never written
        damaged = dict(rows)
        key = f"bubbleId:{COMPOSER}:{MAIN[6]['bubbleId']}"
        damaged[key] = damaged[key][: len(damaged[key]) // 2]
        del damaged[f"bubbleId:{COMPOSER}:{MAIN[-1]['bubbleId']}"]
        rows = list(damaged.items())
    db.executemany("INSERT INTO cursorDiskKV (key, value) VALUES (?, ?)", rows)
    headers = {"allComposers": [
        {"type": "head", "composerId": COMPOSER, "name": main["name"], "lastUpdatedAt": main["lastUpdatedAt"],
         "createdAt": main["createdAt"], "unifiedMode": "agent", "forceMode": "edit", "hasUnreadMessages": False,
         "workspaceIdentifier": main["workspaceIdentifier"], "isArchived": False, "isDraft": False}],
        "selectedComposerIds": [COMPOSER]}
    db.executemany("INSERT INTO ItemTable (key, value) VALUES (?, ?)",
                   [("composer.composerHeaders", js(headers)),
                    ("cursorAuth/cachedSignUpType", "Auth_0")])
    db.commit()
    db.close()


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    build(sys.argv[1], broken="--broken" in sys.argv[2:])

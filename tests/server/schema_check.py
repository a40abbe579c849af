#!/usr/bin/env python3
"""Validates recorded WebSocket messages against protocol/schema.

usage: schema_check.py SCHEMA_DIR MESSAGES_FILE

MESSAGES_FILE holds one JSON object per line:
    {"direction": "sent" | "received", "message": {...}}
"sent" messages are client requests, "received" ones are the server's messages; each is checked
against <SCHEMA_DIR>/<type>.json for its "type" (a received one against <type>_reply.json instead
when that file exists: a reply whose type is its request's). Prints each failure, then "N passed,
N failed"; exits 0 when every message passed, 1 when one failed (or there was nothing to check),
2 on bad usage or unreadable schemas. Needs python3-jsonschema (Debian) or jsonschema from PyPI.
"""
import json
import os
import sys
import warnings

import jsonschema

# The message types of each direction (docs/protocol.md).
REQUESTS = ["hello", "list_tables", "subscribe_lobby", "unsubscribe_lobby", "create_table", "sit",
            "leave", "start", "watch", "sync", "move", "my_games", "log", "undo", "chat",
            "chat_history", "delete_chat", "mute", "unmute", "decline", "withdraw"]
SERVER_MESSAGES = ["welcome", "tables", "lobby_update", "unsubscribed", "table_created", "seated",
                   "table", "left", "started", "snapshot", "patch", "ack", "error", "my_games",
                   "your_turn", "forfeited", "league_table", "log", "chat", "chat_history",
                   "chat_deleted", "muted", "declined", "withdrawn", "invitation",
                   "invitation_declined", "invitation_expired", "invitation_withdrawn"]
# Documents that message schemas refer to with $ref.
SHARED = ["view", "table_summary", "chat_line", "event"]


def load_schemas(schema_dir):
    # The schema of each (direction, type).
    names = {("sent", kind): kind for kind in REQUESTS}
    for kind in SERVER_MESSAGES:
        reply = kind + "_reply"
        exists = os.path.exists(os.path.join(schema_dir, reply + ".json"))
        names[("received", kind)] = reply if exists else kind
    store = {}
    for name in sorted(set(names.values()) | set(SHARED)):
        path = os.path.join(schema_dir, name + ".json")
        with open(path, encoding="utf-8") as f:
            schema = json.load(f)
        jsonschema.Draft202012Validator.check_schema(schema)
        store[name + ".json"] = schema
    validators = {}
    with warnings.catch_warnings():
        # RefResolver is deprecated in jsonschema >= 4.18 but is what Debian's 4.10 offers.
        warnings.simplefilter("ignore", DeprecationWarning)
        for key, name in names.items():
            schema = store[name + ".json"]
            resolver = jsonschema.RefResolver(base_uri=name + ".json", referrer=schema, store=store)
            validators[key] = jsonschema.Draft202012Validator(schema, resolver=resolver)
    return validators


def describe(error):
    where = "/".join(str(part) for part in error.absolute_path)
    return f"at /{where}: {error.message}"


def check_line(validators, line):
    """The list of problems of one line (empty when it is valid)."""
    try:
        entry = json.loads(line)
    except ValueError as error:
        return "?", "?", [f"not JSON: {error}"]
    if not isinstance(entry, dict) or set(entry) != {"direction", "message"}:
        return "?", "?", ['a line is {"direction": ..., "message": ...}']
    direction, message = entry["direction"], entry["message"]
    if direction not in ("sent", "received"):
        return direction, "?", [f"unknown direction {direction!r}"]
    kind = message.get("type") if isinstance(message, dict) else None
    allowed = REQUESTS if direction == "sent" else SERVER_MESSAGES
    if kind not in allowed:
        return direction, kind, [f"no {direction} message has type {kind!r}"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        errors = sorted(validators[direction, kind].iter_errors(message),
                        key=lambda e: list(e.absolute_path))
    problems = []
    for error in errors:
        problems.append(describe(error))
        # oneOf/anyOf failures say little on their own: show what each branch objected to.
        for sub in sorted(error.context or [], key=lambda e: list(e.absolute_path))[:6]:
            problems.append("    " + describe(sub))
    return direction, kind, problems


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        validators = load_schemas(argv[1])
    except (OSError, ValueError, jsonschema.SchemaError) as error:
        print(f"cannot load the schemas: {error}", file=sys.stderr)
        return 2
    passed = failed = 0
    with open(argv[2], encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            direction, kind, problems = check_line(validators, line)
            if problems:
                failed += 1
                excerpt = line.strip()
                if len(excerpt) > 300:
                    excerpt = excerpt[:300] + "..."
                print(f"line {number}: {direction} {kind}: FAILED")
                for problem in problems[:20]:
                    print("  " + problem)
                print("  message: " + excerpt)
            else:
                passed += 1
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))

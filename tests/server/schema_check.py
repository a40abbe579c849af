#!/usr/bin/env python3
"""Validates recorded WebSocket messages, or HTTP API exchanges, against protocol/schema.

usage: schema_check.py SCHEMA_DIR MESSAGES_FILE
       schema_check.py --http SCHEMA_DIR EXCHANGES_FILE

MESSAGES_FILE holds one JSON object per line:
    {"direction": "sent" | "received", "message": {...}}
"sent" messages are client requests, "received" ones are the server's messages; each is checked
against <SCHEMA_DIR>/<type>.json for its "type" (a received one against <type>_reply.json instead
when that file exists: a reply whose type is its request's).

EXCHANGES_FILE (--http) holds one JSON object per line, a request of the HTTP API and its answer:
    {"method": "PUT", "target": "/api/friends/9", "request": {...}, "status": 200, "answer": {...}}
("request" only when a body was sent). The endpoint's name is the method in lower case and the
target's path segments joined by "_", each id (a number or a table id) written "id":
put_api_friends_id. A 2xx answer is checked against <SCHEMA_DIR>/http/<name>.answer.json and its
request against <name>.request.json; any other answer against http/error.json, and its status
against the one its code has (docs/protocol.md, "HTTP API"). A refused request is not checked: it
may be refused for what no schema says (a wrong password). Every schema of http/ must be used by
some line: one that nothing checks would drift from the server unseen.

Prints each failure, then "N passed, N failed"; exits 0 when every line passed, 1 when one failed
(or there was nothing to check), 2 on bad usage or unreadable schemas. Needs python3-jsonschema
(Debian) or jsonschema from PyPI.
"""
import json
import pathlib
import re
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
HTTP = "http"
# The HTTP status of each error code (docs/protocol.md, "HTTP API"); other codes are 400.
HTTP_STATUS = {"bad_credentials": 401, "bad_token": 401, "forbidden": 403, "registered_only": 403,
               "not_found": 404, "name_taken": 409, "wrong_state": 409, "not_finished": 409,
               "token_expired": 410, "rate_limited": 429, "analysis_busy": 429, "internal": 500,
               "storage_failed": 503, "mail_unavailable": 503}
# A path segment that names one thing: a user, league or season number, or a table id.
ID_SEGMENT = re.compile(r"^(?:[1-9][0-9]*|t[0-9a-f]{16})$")


class Schemas:
    """Every schema of SCHEMA_DIR and of its http/ folder, checked, by its name there
    ("error.json", "http/error.json")."""

    def __init__(self, schema_dir):
        self.base = pathlib.Path(schema_dir).resolve()
        self.names = []
        # By file:// URI: relative $refs resolve against it ("../table_summary.json" from http/).
        self.store = {}
        for folder in ("", HTTP):
            for path in sorted((self.base / folder).glob("*.json")):
                with open(path, encoding="utf-8") as f:
                    schema = json.load(f)
                jsonschema.Draft202012Validator.check_schema(schema)
                name = path.relative_to(self.base).as_posix()
                self.names.append(name)
                self.store[self.uri(name)] = schema

    def uri(self, name):
        return (self.base / name).as_uri()

    def __contains__(self, name):
        return self.uri(name) in self.store

    def validator(self, name):
        if name not in self:
            raise OSError(f"no schema {name}")
        uri = self.uri(name)
        with warnings.catch_warnings():
            # RefResolver is deprecated in jsonschema >= 4.18 but is what Debian's 4.10 offers.
            warnings.simplefilter("ignore", DeprecationWarning)
            resolver = jsonschema.RefResolver(base_uri=uri, referrer=self.store[uri],
                                              store=self.store)
            return jsonschema.Draft202012Validator(self.store[uri], resolver=resolver)


def message_validators(schemas):
    """The validator of each (direction, type)."""
    validators = {("sent", kind): schemas.validator(kind + ".json") for kind in REQUESTS}
    for kind in SERVER_MESSAGES:
        reply = kind + "_reply.json"
        validators["received", kind] = schemas.validator(reply if reply in schemas
                                                         else kind + ".json")
    return validators


def describe(error):
    where = "/".join(str(part) for part in error.absolute_path)
    return f"at /{where}: {error.message}"


def problems_of(checker, document):
    """What `checker` finds wrong with `document` (empty when it is valid)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            errors = sorted(checker.iter_errors(document), key=lambda e: list(e.absolute_path))
        except jsonschema.exceptions.RefResolutionError as error:
            return [f"a $ref does not resolve: {error}"]
    problems = []
    for error in errors:
        problems.append(describe(error))
        # oneOf/anyOf failures say little on their own: show what each branch objected to.
        for sub in sorted(error.context or [], key=lambda e: list(e.absolute_path))[:6]:
            problems.append("    " + describe(sub))
    return problems


class MessageCheck:
    """Checks the lines of a file of WebSocket messages."""

    def __init__(self, schemas):
        self.validators = message_validators(schemas)

    def check(self, line):
        """A label for the line, and its problems (none when it is valid)."""
        try:
            entry = json.loads(line)
        except ValueError as error:
            return "?", [f"not JSON: {error}"]
        if not isinstance(entry, dict) or set(entry) != {"direction", "message"}:
            return "?", ['a line is {"direction": ..., "message": ...}']
        direction, message = entry["direction"], entry["message"]
        if direction not in ("sent", "received"):
            return f"{direction} ?", [f"unknown direction {direction!r}"]
        kind = message.get("type") if isinstance(message, dict) else None
        allowed = REQUESTS if direction == "sent" else SERVER_MESSAGES
        if kind not in allowed:
            return f"{direction} {kind}", [f"no {direction} message has type {kind!r}"]
        return f"{direction} {kind}", problems_of(self.validators[direction, kind], message)

    def unused(self):
        return []


def endpoint_name(method, target):
    """GET /api/users/7/games?limit=5 -> get_api_users_id_games."""
    segments = target.split("?", 1)[0].strip("/").split("/")
    return "_".join([method.lower()] + ["id" if ID_SEGMENT.match(s) else s for s in segments])


class ExchangeCheck:
    """Checks the lines of a file of HTTP API exchanges, and which schemas they used."""

    FIELDS = {"method", "target", "request", "status", "answer"}

    def __init__(self, schemas):
        self.validators = {name: schemas.validator(name) for name in schemas.names
                           if name.startswith(HTTP + "/") and name != HTTP + "/defs.json"}
        self.used = set()

    def check(self, line):
        """A label for the line, and its problems (none when it is valid)."""
        try:
            entry = json.loads(line)
        except ValueError as error:
            return "?", [f"not JSON: {error}"]
        if (not isinstance(entry, dict)
                or not self.FIELDS - {"request"} <= set(entry) <= self.FIELDS
                or not isinstance(entry["method"], str) or not isinstance(entry["target"], str)
                or not isinstance(entry["status"], int)):
            return "?", ['a line is {"method", "target", "request"?, "status", "answer"}']
        status, answer = entry["status"], entry["answer"]
        problems = []
        if 200 <= status < 300:
            name = endpoint_name(entry["method"], entry["target"])
            checks = [("answer", f"{HTTP}/{name}.answer.json", answer)]
            if "request" in entry:
                checks.append(("request", f"{HTTP}/{name}.request.json", entry["request"]))
        else:
            checks = [("answer", f"{HTTP}/error.json", answer)]
            code = answer.get("code") if isinstance(answer, dict) else None
            if isinstance(code, str) and HTTP_STATUS.get(code, 400) != status:
                problems.append(f"{code} is answered {HTTP_STATUS.get(code, 400)}, not {status}")
        for what, name, document in checks:
            if name not in self.validators:
                problems.append(f"no schema {name} for the {what}")
                continue
            self.used.add(name)
            problems += [f"{what} {problem}"
                         for problem in problems_of(self.validators[name], document)]
        return f"{entry['method']} {entry['target']} {status}", problems

    def unused(self):
        return sorted(set(self.validators) - self.used)


def main(argv):
    http = len(argv) == 4 and argv[1] == "--" + HTTP
    if len(argv) != (4 if http else 3):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    schema_dir, lines = argv[-2], argv[-1]
    try:
        schemas = Schemas(schema_dir)
        check = ExchangeCheck(schemas) if http else MessageCheck(schemas)
    except (OSError, ValueError, jsonschema.SchemaError) as error:
        print(f"cannot load the schemas: {error}", file=sys.stderr)
        return 2
    passed = failed = 0
    with open(lines, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            label, problems = check.check(line)
            if problems:
                failed += 1
                excerpt = line.strip()
                if len(excerpt) > 300:
                    excerpt = excerpt[:300] + "..."
                print(f"line {number}: {label}: FAILED")
                for problem in problems[:20]:
                    print("  " + problem)
                print("  line: " + excerpt)
            else:
                passed += 1
    unused = check.unused()
    if unused:
        print("no line used " + ", ".join(unused))
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 and passed > 0 and not unused else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))

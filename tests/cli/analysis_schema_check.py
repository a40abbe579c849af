#!/usr/bin/env python3
"""Checks `cor analyse`'s output against protocol/schema/analysis.json.

usage: analysis_schema_check.py COR SCHEMA_DIR

Reviews two small bot games (2 and 4 players, the latter with the Shrine) with a small world
budget and validates each review. Exits 0 when both are valid, 1 otherwise. Needs
python3-jsonschema (Debian) or jsonschema from PyPI.
"""
import json
import pathlib
import subprocess
import sys

# The server's schema check loads the schemas and resolves their $refs between files.
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "server"))
from schema_check import Schemas  # noqa: E402


def main():
    cor, schema_dir = sys.argv[1], sys.argv[2]
    validator = Schemas(schema_dir).validator("analysis.json")
    failed = 0
    for game in (["--players", "2"], ["--players", "4", "--shrine"]):
        record = subprocess.run([cor, "simulate", "--games", "1", "--seed", "3", "--bot",
                                 "greedy", *game], check=True, capture_output=True).stdout
        review = json.loads(subprocess.run([cor, "analyse", "--worlds", "2", "-"], input=record,
                                           check=True, capture_output=True).stdout)
        errors = list(validator.iter_errors(review))
        for error in errors:
            print(f"{' '.join(game)}: {error.json_path}: {error.message}")
        if not review["decisions"]:
            errors.append("no decisions")
            print(f"{' '.join(game)}: no decisions to check")
        failed += bool(errors)
    print(f"{2 - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

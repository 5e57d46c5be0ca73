#!/usr/bin/env python3
"""Validates bpfvet's JSON output against its schema (docs/schema).

Usage: scripts/json-validate.py [--schema FILE] [DOC...]   (DOC: a file, or
- for standard input; default -). Without --schema, each document's own
"schema" field ("bpfvet-verify/1") names its file in docs/schema
("bpfvet-verify-1.json"). Prints one line per invalid document, naming the
first failing path, and exits 1 if any; exits 2 when the validator
(python3-jsonschema) or a schema is missing.
"""
import json
import os
import sys

try:
    import jsonschema
except ImportError:
    print("json-validate: no jsonschema module (Debian: python3-jsonschema)",
          file=sys.stderr)
    sys.exit(2)

SCHEMA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                          "..", "docs", "schema")


def schema_file(name):
    """docs/schema/NAME-VERSION.json for a "NAME/VERSION" id."""
    if not isinstance(name, str) or name.count("/") != 1:
        return None
    return os.path.join(SCHEMA_DIR, name.replace("/", "-") + ".json")


def load_schema(path):
    with open(path) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def problem(validator, doc):
    """The first error of doc, as "path: message", or None."""
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
    if not errors:
        return None
    e = errors[0]
    where = "/".join(str(p) for p in e.absolute_path) or "(top)"
    return "%s: %s" % (where, e.message)


def check(name, text, fixed):
    try:
        doc = json.loads(text)
    except ValueError as e:
        return "not JSON: %s" % e
    path = fixed or schema_file(doc.get("schema") if isinstance(doc, dict) else None)
    if not path:
        return "no \"schema\" field naming its schema"
    if not os.path.exists(path):
        return "no schema file %s" % path
    return problem(load_schema(path), doc)


def main(argv):
    fixed = None
    if len(argv) >= 2 and argv[0] == "--schema":
        fixed, argv = argv[1], argv[2:]
    bad = 0
    for name in argv or ["-"]:
        text = sys.stdin.read() if name == "-" else open(name).read()
        why = check(name, text, fixed)
        if why:
            print("%s: invalid: %s" % (name, why))
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/python3
"""Validates YAML documents against a JSON Schema (draft 2020-12).

  check.py SCHEMA FILE...

Every document of every FILE (results may be concatenated) must validate.
!!binary values (names that are not UTF-8) load as bytes; the schemas
describe them as strings, so they are given to the validator as their
base64 text.  Exit 0 when all validate, 1 otherwise (each error printed
with the file, the document and the path inside it).
"""
import base64
import json
import sys

import jsonschema
import yaml

# libyaml's loader where python3-yaml has it (Debian's does): the same
# safe constructors, several times faster than the pure Python one
LOADER = getattr(yaml, 'CSafeLoader', yaml.SafeLoader)


def strings(v):
    if isinstance(v, bytes):
        return base64.b64encode(v).decode()
    if isinstance(v, list):
        return [strings(x) for x in v]
    if isinstance(v, dict):
        return {strings(k): strings(x) for k, x in v.items()}
    return v


def main():
    with open(sys.argv[1]) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    val = jsonschema.Draft202012Validator(schema)
    bad = 0
    for path in sys.argv[2:]:
        with open(path, 'rb') as f:
            docs = list(yaml.load_all(f, Loader=LOADER))
        if not docs:
            print(f'{path}: no document', file=sys.stderr)
            bad += 1
        for i, d in enumerate(docs):
            for e in val.iter_errors(strings(d)):
                loc = '/'.join(str(p) for p in e.absolute_path)
                print(f'{path}: document {i}: /{loc}: {e.message}',
                      file=sys.stderr)
                bad += 1
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())

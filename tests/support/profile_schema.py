#!/usr/bin/env python3
"""Validates Ocelot profile files against docs/profile.schema.json (JSON Schema 2020-12).

    profile_schema.py FILE...                       # each file must be a valid profile document
    profile_schema.py --self-check --command PROG   # PROG prints a document: it must be valid, and
                                                    # documents broken on purpose must not be

Other test scripts import it: `validate_document(document, where)` raises ProfileSchemaError.
Needs Debian's python3-jsonschema (scripts/setup-debian.sh installs it). Where it cannot be
installed (the lent GPU machine has no package registry), OCELOT_PROFILE_SCHEMA_OPTIONAL=1 turns
the schema check into a no-op with one note on stderr; the callers' own checks still run.
"""
import argparse
import copy
import json
import os
import subprocess
import sys

SCHEMA_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs",
                           "profile.schema.json")


class ProfileSchemaError(Exception):
    pass


_validator = None
_skipping = False


def validator():
    """The schema's validator, or None where jsonschema is missing and the check is optional."""
    global _validator, _skipping
    if _validator is None and not _skipping:
        try:
            import jsonschema
        except ImportError:
            if os.environ.get("OCELOT_PROFILE_SCHEMA_OPTIONAL") == "1":
                _skipping = True
                print("profile_schema: python3-jsonschema is not installed: profiles are not "
                      "checked against docs/profile.schema.json here", file=sys.stderr)
                return None
            raise ProfileSchemaError("python3-jsonschema is not installed "
                                     "(scripts/setup-debian.sh installs it)")
        with open(SCHEMA_PATH) as f:
            schema = json.load(f)
        jsonschema.Draft202012Validator.check_schema(schema)
        _validator = jsonschema.Draft202012Validator(schema)
    return _validator


def problems(document):
    """Every way `document` breaks the schema, as 'path: message' lines (empty when valid)."""
    out = []
    checker = validator()
    if checker is None:
        return out
    for error in sorted(checker.iter_errors(document), key=lambda e: list(e.path)):
        path = "/".join(str(p) for p in error.absolute_path) or "(document)"
        out.append("%s: %s" % (path, error.message[:300]))
    return out


def validate_document(document, where="profile document"):
    found = problems(document)
    if found:
        raise ProfileSchemaError("%s does not match docs/profile.schema.json:\n  %s" %
                                 (where, "\n  ".join(found[:10])))


def validate_file(path):
    with open(path) as f:
        document = json.load(f)
    validate_document(document, path)
    return document


def broken_variants(document):
    """Copies of a valid document, each broken in one way the schema must catch."""
    first = document["profiles"][0]
    variants = []

    def variant(name, change):
        broken = copy.deepcopy(document)
        change(broken["profiles"][0])
        variants.append((name, broken))

    variant("a profile without its kernel", lambda p: p.pop("kernel"))
    variant("a count written as a string", lambda p: p.update(launch_id=str(p["launch_id"])))
    variant("a member the format does not have", lambda p: p.update(kernel_name="k"))
    variant("an unknown execution", lambda p: p.update(execution="skipped"))
    variant("a grid of two dimensions", lambda p: p.update(grid=[1, 1]))
    variant("an original launch with results",
            lambda p: p.update(execution="original", results=first["results"]))
    if "bbcount" in first["results"]:
        variant("a negative block count",
                lambda p: p["results"]["bbcount"]["blocks"][0].update(count=-1))
        if "cfg" in first["results"]["bbcount"]:
            variant("a CFG edge to a negative block", lambda p: p["results"]["bbcount"]["cfg"][
                "functions"][0]["blocks"][0].update(successors=[-1]))
    if "ctaclock" in first["results"]:
        variant("a CTA column of strings",
                lambda p: p["results"]["ctaclock"]["ctas"].update(sm=["0"]))
    variants.append(("a document of another schema version", dict(document, schema=2)))
    if document.get("operations"):
        broken = copy.deepcopy(document)
        broken["operations"][0]["kind"] = "transfer"
        variants.append(("an operation of an unknown kind", broken))
    if document.get("nvtx"):
        broken = copy.deepcopy(document)
        broken["nvtx"][0].pop("thread")
        variants.append(("an NVTX range without its thread", broken))
    return variants


def self_check(command):
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    if done.returncode != 0:
        raise ProfileSchemaError("%s exited %d: %s" % (command[0], done.returncode, done.stderr))
    document = json.loads(done.stdout)
    validate_document(document, "the output of " + os.path.basename(command[0]))
    if not document.get("profiles"):
        raise ProfileSchemaError("the sample document has no profiles")
    print("valid: %d sample profiles" % len(document["profiles"]))
    for name, broken in broken_variants(document):
        if not problems(broken):
            raise ProfileSchemaError("the schema accepts %s" % name)
        print("rejected as it must be: %s" % name)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*")
    parser.add_argument("--self-check", action="store_true")
    parser.add_argument("--command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    try:
        if args.self_check:
            if not args.command:
                parser.error("--self-check needs --command PROGRAM")
            self_check(args.command)
        for path in args.files:
            document = validate_file(path)
            print("valid: %s (%d profiles)" % (path, len(document.get("profiles", []))))
    except (ProfileSchemaError, OSError, ValueError) as e:
        print("profile_schema: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

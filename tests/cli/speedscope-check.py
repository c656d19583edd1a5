# SPDX-License-Identifier: MIT
# speedscope-check.py - checks of profflame --speedscope files, used by
# tests/cli/speedscope.sh.  Exits 1 with "speedscope-check: ..." lines on
# a fault.
#
#   valid FILE [SCHEMA]
#       FILE follows speedscope's file format: the rules of its schema
#       (https://www.speedscope.app/file-format-schema.json: required
#       fields, types, constants, units), and what speedscope checks when
#       it loads (frame indexes in range, as many weights as samples,
#       positive weights).  With SCHEMA (the file-format-schema.json the
#       speedscope package ships), FILE is also validated against it by a
#       small draft-07 interpreter (type, const, enum, required,
#       properties, items, anyOf, $ref).  Prints the profile names.
#   stacks FILE PROFILE-NAME FOLDED
#       the profile's samples, as ";"-joined frame names, with their
#       weights, are exactly FOLDED's lines.
#   frame FILE NAME FILE-SUFFIX
#       a frame called NAME has a file ending in FILE-SUFFIX and a line > 0.
import json
import sys

SCHEMA_URL = "https://www.speedscope.app/file-format-schema.json"
UNITS = {"none", "nanoseconds", "microseconds", "milliseconds", "seconds", "bytes"}
faults = []


def fault(msg):
    faults.append(msg)
    if len(faults) < 20:
        print("speedscope-check: " + msg, file=sys.stderr)


def done():
    sys.exit(1 if faults else 0)


def number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def check_rules(f):
    if not isinstance(f, dict):
        fault("top level is not an object")
        done()
    for k in ("$schema", "profiles", "shared"):
        if k not in f:
            fault("no %s" % k)
    if f.get("$schema") != SCHEMA_URL:
        fault("$schema is %r" % f.get("$schema"))
    for k, kind in (("name", str), ("exporter", str)):
        if k in f and not isinstance(f[k], kind):
            fault("%s is not a string" % k)
    frames = f.get("shared", {}).get("frames")
    if not isinstance(frames, list):
        fault("shared.frames is not an array")
        done()
    for i, fr in enumerate(frames):
        if not isinstance(fr, dict) or not isinstance(fr.get("name"), str):
            fault("frame %d has no name" % i)
            continue
        if "file" in fr and not isinstance(fr["file"], str):
            fault("frame %d: file is not a string" % i)
        for k in ("line", "col"):
            if k in fr and not (number(fr[k]) and fr[k] >= 1):
                fault("frame %d: %s %r" % (i, k, fr[k]))
    profiles = f.get("profiles")
    if not isinstance(profiles, list) or not profiles:
        fault("profiles is not a non-empty array")
        done()
    if "activeProfileIndex" in f and not (
            isinstance(f["activeProfileIndex"], int) and 0 <= f["activeProfileIndex"] < len(profiles)):
        fault("activeProfileIndex %r out of range" % f["activeProfileIndex"])
    for p in profiles:
        name = p.get("name")
        if p.get("type") != "sampled":
            fault("%r: type %r" % (name, p.get("type")))
        if not isinstance(name, str):
            fault("a profile has no name")
        if p.get("unit") not in UNITS:
            fault("%r: unit %r" % (name, p.get("unit")))
        for k in ("startValue", "endValue"):
            if not number(p.get(k)):
                fault("%r: %s %r" % (name, k, p.get(k)))
        samples, weights = p.get("samples"), p.get("weights")
        if not isinstance(samples, list) or not isinstance(weights, list):
            fault("%r: samples or weights not arrays" % name)
            continue
        if len(samples) != len(weights):
            fault("%r: %d samples, %d weights" % (name, len(samples), len(weights)))
        for s in samples:
            if not isinstance(s, list) or not all(isinstance(i, int) and 0 <= i < len(frames) for i in s):
                fault("%r: sample %r has a frame index out of range" % (name, s))
                break
        if not all(number(w) and w > 0 for w in weights):
            fault("%r: a weight is not a positive number" % name)
        if number(p.get("endValue")) and sum(weights) != p["endValue"] - p.get("startValue", 0):
            fault("%r: weights add up to %d, endValue is %r" % (name, sum(weights), p["endValue"]))


def schema_ok(value, schema, root, where):
    if "$ref" in schema:
        ref = schema["$ref"]
        node = root
        for part in ref.lstrip("#/").split("/"):
            node = node[part]
        return schema_ok(value, node, root, where)
    if "anyOf" in schema:
        if not any(schema_ok(value, s, root, None) for s in schema["anyOf"]):
            if where:
                fault("%s: matches none of anyOf" % where)
            return False
    kinds = {"object": dict, "array": list, "string": str, "boolean": bool}
    t = schema.get("type")
    if t == "number" and not number(value) or t in kinds and not isinstance(value, kinds[t]) \
            or t == "number" and isinstance(value, bool):
        if where:
            fault("%s: not a %s" % (where, t))
        return False
    if "const" in schema and value != schema["const"]:
        if where:
            fault("%s: %r is not %r" % (where, value, schema["const"]))
        return False
    if "enum" in schema and value not in schema["enum"]:
        if where:
            fault("%s: %r not in %r" % (where, value, schema["enum"]))
        return False
    ok = True
    if isinstance(value, dict):
        for k in schema.get("required", []):
            if k not in value:
                if where:
                    fault("%s: no %s" % (where, k))
                ok = False
        for k, s in schema.get("properties", {}).items():
            if k in value:
                ok = schema_ok(value[k], s, root, where and "%s.%s" % (where, k)) and ok
    if isinstance(value, list) and "items" in schema:
        for i, v in enumerate(value):
            ok = schema_ok(v, schema["items"], root, where and "%s[%d]" % (where, i)) and ok
            if not ok:
                break
    return ok


def load(path):
    try:
        with open(path, encoding="utf-8") as fp:
            return json.load(fp)
    except (OSError, ValueError) as e:
        fault("%s: %s" % (path, e))
        done()


def cmd_valid(args):
    f = load(args[0])
    check_rules(f)
    if len(args) > 1:
        schema = load(args[1])
        top = schema.get("$ref", "#/definitions/FileFormat.File")
        schema_ok(f, {"$ref": top}, schema, "file")
    for p in f.get("profiles", []):
        print(p.get("name"))
    done()


def cmd_stacks(args):
    f = load(args[0])
    names = [fr["name"] for fr in f["shared"]["frames"]]
    want = {}
    for line in open(args[2], encoding="utf-8"):
        stack, count = line.rstrip("\n").rsplit(" ", 1)
        want[stack] = want.get(stack, 0) + int(count)
    for p in f["profiles"]:
        if p["name"] != args[1]:
            continue
        got = {}
        for s, w in zip(p["samples"], p["weights"]):
            key = ";".join(names[i] for i in s) or "[no stack]"
            got[key] = got.get(key, 0) + w
        for k in sorted(set(want) | set(got)):
            if want.get(k) != got.get(k):
                fault("%s: %r: speedscope %r, folded %r" % (args[1], k, got.get(k), want.get(k)))
        done()
    fault("no profile named %r" % args[1])
    done()


def cmd_frame(args):
    f = load(args[0])
    for fr in f["shared"]["frames"]:
        if fr["name"] == args[1]:
            if not fr.get("file", "").endswith(args[2]) or fr.get("line", 0) < 1:
                fault("frame %r: file %r line %r" % (args[1], fr.get("file"), fr.get("line")))
            done()
    fault("no frame %r" % args[1])
    done()


if __name__ == "__main__":
    {"valid": cmd_valid, "stacks": cmd_stacks, "frame": cmd_frame}[sys.argv[1]](sys.argv[2:])

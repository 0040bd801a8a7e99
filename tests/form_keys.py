#!/usr/bin/env python3
"""Gives every page form its own idempotency key (a form sent twice is applied once).

    python3 tests/form_keys.py           # adds the key where it is missing, in templates/
    python3 tests/form_keys.py --check   # lists the forms without it; exit 1 if any

A form that carries the CSRF field gets the key right after it; a POST form without one
(the player's link, the kiosk, the join pages) right after its opening tag. The same check
runs in the tests (`tests/http/idempotency.rs`, `every_post_form_carries_a_key`).
"""
import pathlib
import re
import sys

CSRF = '<input type="hidden" name="csrf" value="{{ c.csrf }}">'
KEY = '<input type="hidden" name="idempotency_key" value="{{ c.form_key() }}">'
FORM = re.compile(r"<form\b", re.I)


def tag_end(s, i):
    """The index just past the `>` closing the tag opened at i (template tags skipped)."""
    while i < len(s):
        if s.startswith("{{", i):
            i = s.index("}}", i) + 2
        elif s.startswith("{%", i):
            i = s.index("%}", i) + 2
        elif s[i] == ">":
            return i + 1
        else:
            i += 1
    raise ValueError("unclosed tag")


def forms(s):
    """(start, end of opening tag, end of form) of each POST form."""
    for m in FORM.finditer(s):
        open_end = tag_end(s, m.start())
        if not re.search(r'method\s*=\s*"post"', s[m.start():open_end], re.I):
            continue
        close = s.find("</form>", open_end)
        yield m.start(), open_end, (close if close >= 0 else len(s))


def fix(s):
    s = re.sub(re.escape(CSRF) + r"(?!" + re.escape(KEY) + ")", CSRF + KEY, s)
    # POST forms without a CSRF field: the key right after the opening tag (from the end,
    # so that the positions found stay right).
    for _, open_end, close in reversed(list(forms(s))):
        if KEY not in s[open_end:close]:
            s = s[:open_end] + KEY + s[open_end:]
    return s


def missing(s):
    return [s[a:o] for a, o, c in forms(s) if KEY not in s[o:c]]


def main():
    root = pathlib.Path(__file__).resolve().parent.parent / "templates"
    check = "--check" in sys.argv[1:]
    bad = 0
    for p in sorted(root.rglob("*.html")):
        s = p.read_text(encoding="utf-8")
        if check:
            for f in missing(s):
                bad += 1
                print(f"{p.relative_to(root)}: {f}")
        else:
            t = fix(s)
            if t != s:
                p.write_text(t, encoding="utf-8")
                print(f"keyed {p.relative_to(root)}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

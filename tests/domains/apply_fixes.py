"""Applies the fixes of a `check --format json` report to a copy of the
scanned tree, the way server/fixes.c does: edits sorted, identical edits
applied once, a finding whose edits overlap an edit already taken skipped
whole. Usage: apply_fixes.py REPORT.json SRC_ROOT DST_ROOT [--safe-only]
Prints one line per file changed."""
import json
import os
import shutil
import sys


def offset(lines, line, col):
    """1-based line and code-point column -> index into the joined text."""
    return sum(len(l) for l in lines[:line - 1]) + col - 1


def conflict(a, b):
    if a == b:
        return False
    (s1, e1, _), (s2, e2, _) = a, b
    if s1 == e1 and s2 == e2:
        return s1 == s2
    if s1 == e1:
        return s2 < s1 < e2
    if s2 == e2:
        return s1 < s2 < e1
    return s1 < e2 and s2 < e1


def main():
    report, src, dst = sys.argv[1:4]
    safe_only = "--safe-only" in sys.argv
    with open(report, encoding="utf-8") as f:
        findings = json.load(f)["findings"]
    if os.path.exists(dst):
        shutil.rmtree(dst)
    shutil.copytree(src, dst)
    by_file = {}
    for fd in findings:
        fix = fd.get("fix")
        if not fix or (safe_only and fix["applicability"] != "safe"):
            continue
        by_file.setdefault(fd["file"], []).append(fix["edits"])
    for rel, fixes in sorted(by_file.items()):
        path = os.path.join(dst, rel)
        with open(path, encoding="utf-8", newline="") as f:
            text = f.read()
        lines = text.splitlines(keepends=True) + [""]
        taken = []
        for edits in fixes:
            conv = [(offset(lines, e["line"], e["column"]), offset(lines, e["end_line"], e["end_column"]),
                     e["content"]) for e in edits]
            if any(conflict(c, t) for c in conv for t in taken):
                continue
            taken.extend(c for c in conv if c not in taken)
        for s, e, content in sorted(taken, key=lambda x: (x[0], x[1]), reverse=True):
            text = text[:s] + content + text[e:]
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        print(f"fixed {rel}: {len(taken)} edits")


if __name__ == "__main__":
    main()

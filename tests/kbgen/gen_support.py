#!/usr/bin/env python3
"""gen_support: turns the torch_npu native-API support lists into kb_support.def.

The support lists are the Markdown pages of the Ascend/pytorch repository
(docs/zh/api/native_api/pytorch_<version>/*.md on master, docs/zh/native_apis/
pytorch_<version>/ on the release branches). Three page formats exist:

  - sections (2.7.1, 2.9.0 and later): a `### name` heading (or a
    `> <font size="3">method()</font>` line under a class heading), a
    "**支持情况**" table with one row per product (✔ / ✘) and an optional
    "**限制与说明**" paragraph or list;
  - tables (2.6.0, 2.8.0): `|API名称|是否支持|限制与说明|` rows, one status for
    every product of the release;
  - product lists (2.14.0, later 2.13.0 pages): the sections' headings, a
    "**产品支持情况**" list with one `- <term>product</term>：支持 / 不支持`
    item per product, each wrapped in `<!-- npu="910b" idN -->` ...
    `<!-- end idN -->`, and "**限制与说明**" where a restriction wrapped in
    such a block holds for that product only. Items may also stand without a
    block, and a page of this format may still give some entries as tables.

Each API of each version becomes facts: (API, versions, chips, status,
restricted, may fall back to CPU, dtype restrictions, dimension limit, note).
Facts that are equal on several chips share a row (a chip mask) and facts that
are equal over consecutive versions share a row (a version range). Rows are
sorted by API name (bytewise) so that the C side can binary-search them.

Usage:
  gen_support.py --git GITDIR --sources tests/kbgen/sources.txt -o analyzers/kb/kb_support.def
  gen_support.py --tree DIR --commit C --sources LIST -o OUT   (pages read from DIR/<path>)
  ... --pages PAGES   (the copies the `dir:` sources name, PAGES/<last part of PATH>/)

A source line is `VERSION REF PATH` (PATH: the version's page directory).
REF `dir:MANIFEST` reads the version from local copies of its pages instead
of the git copy: MANIFEST (next to the source list) names each page with
the commit it was copied at and its length in characters; a page missing,
extra or of another length stops the generator.
A page that does not parse stops the generator with its file and line:
the table is never silently shorter. Python 3 standard library only.
"""

import argparse
import hashlib
import os
import re
import subprocess
import sys

CHIPS = {  # <term> names of the support tables and lists -> C chip mask names
    "Atlas A2 训练系列产品": "CHIP_910B",
    "Atlas A3 训练系列产品": "CHIP_A3",
    "Ascend 950DT": "CHIP_950",
    "Atlas 训练系列产品": "CHIP_910A",
    "Atlas A2训练系列产品": "CHIP_910B",  # the product lists write the names without the space
    "Atlas A3训练系列产品": "CHIP_A3",
    "Ascend 950DT系列产品": "CHIP_950",
    "Atlas训练系列产品": "CHIP_910A",
}
NPU_CHIPS = {  # `<!-- npu="..." idN -->` of the product lists -> C chip mask names
    "910b": "CHIP_910B",
    "A3": "CHIP_A3",
    "950": "CHIP_950",
    "910a": "CHIP_910A",
    "910": "CHIP_910A",  # npu="910b,910": Atlas 训练系列产品 (910A)
}
CHIP_ORDER = ["CHIP_910B", "CHIP_A3", "CHIP_950", "CHIP_910A"]
TABLE_CHIPS = ("CHIP_910B", "CHIP_A3")  # the products of the table-format releases

DTYPES = ["bf16", "fp16", "fp32", "fp64", "uint8", "uint16", "uint32", "uint64", "int8", "int16",
          "int32", "int64", "bool", "complex32", "complex64", "complex128", "hifloat8",
          "float8_e4m3fn", "float8_e5m2", "fp8"]
DTYPE_RE = "|".join(sorted((re.escape(d) for d in DTYPES), key=len, reverse=True))
# `input`仅支持bf16，fp16，fp32  /  支持fp16，fp32 (table format, no parameter)
# (not "不支持fp16" or "额外支持bf16": those are other notes)
ONLY_RE = re.compile(r"(?:(?:`(\w+)`)?\s*仅支持|^\s*支持)((?:(?:%s)\s*[，,、和及]?\s*)+)(?![\w])" % DTYPE_RE)
DIM_RE = re.compile(r"最大支持(\d+)维")
FALLBACK_RE = re.compile(r"回退(?:至|到)CPU")
TERM_RE = re.compile(r"<term>([^<]*)</term>")


class ParseError(Exception):
    pass


def fail(path, lineno, msg):
    raise ParseError("%s:%d: %s" % (path, lineno, msg))


def clean_name(s):
    s = s.replace("\\_", "_").replace("\\*", "*").strip()
    s = re.sub(r"<code><i>\w+</i></code>", "", s)  # the kind before a member: property, classmethod
    s = re.sub(r"<[^>]+>", "", s).strip()
    s = s.strip("`").strip()
    return s


def clean_note(s):
    s = s.replace("<br>", "; ").replace("\\_", "_")
    s = re.sub(r"\s+", " ", s).strip()
    return s


class Fact:
    """What one page says of one API on one chip."""

    def __init__(self, status):
        self.status = status  # "SUPPORTED" or "UNSUPPORTED"
        self.notes = []       # restriction sentences that apply to this chip

    def key(self):
        dt, dim, fb, rest = analyse_notes(self.notes)
        return (self.status, dt, dim, fb, rest)


def analyse_notes(notes):
    """(dtype restriction "param:a,b;param2:c", max dims, cpu fallback, note) of the notes."""
    dts, dim, fb = [], 0, False
    for n in notes:
        for m in ONLY_RE.finditer(n):
            names = [d for d in re.split(r"[，,、和及\s]+", m.group(2)) if d]
            dts.append("%s:%s" % (m.group(1) or "*", ",".join(names)))
        m = DIM_RE.search(n)
        if m:
            dim = int(m.group(1))
        if FALLBACK_RE.search(n):
            fb = True
    return (";".join(dts), dim, fb, "; ".join(notes))


def unparsed(note):
    """The sentences of a note that the fields do not carry (kept in the original words)."""
    rest = []
    for n in note.split("; ") if note else []:
        t = ONLY_RE.sub("", n)
        t = re.sub(r"(?:输入)?最大支持\d+维|可能回退(?:至|到)CPU执行", "", t)
        if re.search(r"[\w\u4e00-\u9fff]", t):
            rest.append(n)
    return "; ".join(rest)


def chips_of_line(line):
    """A restriction line that names products applies to them only."""
    terms = TERM_RE.findall(line)
    if not terms:
        return None, line
    head, sep, tail = line.partition("：")
    head_terms = TERM_RE.findall(head)
    chips = [CHIPS[t] for t in head_terms if t in CHIPS]
    if sep and head_terms and TERM_RE.sub("", head).strip(" 、,，/") == "":
        return chips, tail.strip()
    # "<term>A3</term>额外支持bf16": a note about that product only
    if len(terms) == 1 and line.lstrip("- ").startswith("<term>"):
        if terms[0] not in CHIPS:
            return [], line
        return [CHIPS[terms[0]]], TERM_RE.sub(terms[0], line)
    return None, TERM_RE.sub(lambda m: m.group(1), line)


# --------------------------------------------------------------------------
# section format

# `### name`; the product lists also nest `#### Group` / `##### <class> name` under a module heading
HEAD_RE = re.compile(r"^(?P<level>#{3,5})\s+(?:<code><i>class</i></code>\s+)?(?P<name>.+?)\s*$")
METHOD_RE = re.compile(r"^>\s*<font[^>]*>\s*(?P<name>.+?)\s*</font>\s*$")
ROW_RE = re.compile(r"^\|\s*<term>([^<]+)</term>\s*\|\s*(\S+)\s*\|\s*$")
ITEM_RE = re.compile(r"^(?:-\s*)?<term>([^<]+)</term>\s*[：:]\s*(\S+)\s*$")  # a product-list item (the dash is sometimes left out)
BLOCK_RE = re.compile(r"^<!--\s*npu=\"([^\"]*)\"\s*(id\d+)\s*-->$")
BLOCK_END_RE = re.compile(r"^<!--\s*end\s+(id\d+)\s*-->$")
NAME_OK = re.compile(r"^[A-Za-z_][A-Za-z_0-9]*(\.[A-Za-z_][A-Za-z_0-9]*)*$")


def parse_sections(path, text):
    """[(api, {chip: Fact})] of a section-format page."""
    out = []
    cls = None        # the class a `> <font>method()</font>` line belongs to
    cur = None        # (api, facts, lineno) of the entry being read
    state = None      # "table" | "list" | "note" | None
    in_code = False   # inside a fenced example of a note
    block = None      # (chip, id, lineno) of the open `<!-- npu="..." idN -->` block
    lines = text.split("\n")

    pending = []  # a class heading without a table of its own: its methods must follow

    def close(next_name=None):
        """Ends the current entry; next_name is the entry that follows (None: none)."""
        if cur is not None:
            if cur[1]:
                out.append((cur[0], cur[1]))
            else:
                pending.append((cur[0], cur[2]))
        if pending and not (next_name and next_name.startswith(pending[0][0] + ".")):
            fail(path, pending[0][1], "entry %s has no support table" % pending[0][0])
        pending.clear()

    for i, raw in enumerate(lines, 1):
        line = raw.rstrip()
        s = line.strip()
        if s.startswith("<!--") and not in_code:
            block = read_block(path, i, s, block)
            continue
        m = HEAD_RE.match(line)
        mm = None if m else METHOD_RE.match(line)
        if (m or mm or line.startswith("## ")) and block:
            fail(path, block[2], "product block %s is not closed before line %d" % (block[1], i))
        if m or mm:
            name = clean_name((m or mm).group("name"))
            if m and len(m.group("level")) > 3 and "." not in name:
                state = None  # `#### BlockMask`: a group title over the entries that follow
                continue
            if mm:
                name = re.sub(r"\(.*\)$", "", name)
                if not name.startswith("torch") and cls:
                    name = cls + "." + name
            elif name in ("目录",):
                continue
            if not NAME_OK.match(name):
                fail(path, i, "cannot read an API name from %r" % line)
            close(name)
            if m:
                cls = name
            cur = (name, {}, i)
            state = None
            continue
        if line.startswith("## "):
            close()
            cur, cls, state = None, None, None
            continue
        if cur is None:
            continue
        if "**支持情况**" in line or "**产品支持情况**" in line:
            if cur[1]:
                fail(path, i, "entry %s has a second support table" % cur[0])
            state = "table" if "**支持情况**" in line else "list"
            continue
        if "**限制与说明**" in line:
            if not cur[1]:
                fail(path, i, "restrictions of %s come before its support table" % cur[0])
            state = "note"
            rest = line.split("**限制与说明**", 1)[1].lstrip("：: ").strip()
            if rest:
                add_note(cur[1], rest, block and block[0])
            continue
        if state == "table" and ITEM_RE.match(s):
            state = "list"  # "**支持情况**" over a product list (2.14.0 writes both labels so)
        if state == "table":
            r = ROW_RE.match(line)
            if r:
                term, mark = r.group(1).strip(), {"&#10004;": "✔", "&#10008;": "✘"}.get(r.group(2), r.group(2))
                if term not in CHIPS:
                    fail(path, i, "unknown product %r" % term)
                if mark not in ("✔", "✘"):
                    fail(path, i, "unknown support mark %r" % mark)
                cur[1][CHIPS[term]] = Fact("SUPPORTED" if mark == "✔" else "UNSUPPORTED")
            elif line.startswith("|") and not (line.startswith("| 硬件") or line.startswith("| --")):
                fail(path, i, "unreadable support-table row %r" % line)
            elif line and not line.startswith("|"):
                state = None
        elif state == "list":
            read_item(path, i, s, cur[1], block)
            if s and not ITEM_RE.match(s):
                state = None
        elif state == "note":
            if s.startswith("```"):
                in_code = not in_code  # an example in the note: code, not a restriction
            elif in_code:
                pass
            elif s.startswith("</div>") or s.startswith("> <font") or s.startswith("<div"):
                state = None
            elif s.startswith("- ") or (s and not s.startswith("|")):
                add_note(cur[1], s[2:] if s.startswith("- ") else s, block and block[0])
    if block:
        fail(path, block[2], "product block %s is not closed" % block[1])
    close()
    return out


def read_block(path, i, s, block):
    """The product block open after the comment line s (product lists)."""
    b = BLOCK_RE.match(s)
    if b:
        if block:
            fail(path, i, "product block %s opens inside block %s" % (b.group(2), block[1]))
        names = b.group(1).split(",")  # one product, or several: npu="950,A3,910b"
        for n in names:
            if n.strip() not in NPU_CHIPS:
                fail(path, i, "unknown product npu=%r" % b.group(1))
        return (frozenset(NPU_CHIPS[n.strip()] for n in names), b.group(2), i)
    e = BLOCK_END_RE.match(s)
    if e:
        if not block or block[1] != e.group(1):
            fail(path, i, "%r closes no open product block" % s)
        return None
    if "npu=" in s or re.match(r"^<!--\s*end\b", s):
        fail(path, i, "unreadable product block comment %r" % s)
    return block  # another comment: not part of the list


def read_item(path, i, s, facts, block):
    """One line of a "**产品支持情况**" list: `- <term>product</term>：支持` (or 不支持)."""
    r = ITEM_RE.match(s)
    if not r:
        if s.startswith("-") and "<term>" in s:
            fail(path, i, "unreadable product item %r" % s)
        if s and block:
            fail(path, i, "text in product block %s is neither an item nor a restriction" % block[1])
        return
    term, mark = r.group(1).strip(), r.group(2)
    if term not in CHIPS:
        fail(path, i, "unknown product %r" % term)
    if mark not in ("支持", "不支持"):
        fail(path, i, "unknown support value %r" % mark)
    if block and CHIPS[term] not in block[0]:
        fail(path, i, "product %r in the block of another product (%s)" % (term, block[1]))
    facts[CHIPS[term]] = Fact("SUPPORTED" if mark == "支持" else "UNSUPPORTED")


def add_note(facts, text, only=None):
    """Adds a restriction to the facts it names; `only`: the chips of the product block it stands in."""
    chips, body = chips_of_line(text)
    # "…，例如：" / "示例如下：" introduce an example (code), not a restriction
    body = re.sub(r"[，,]?\s*(?:例如|示例如下|如下)[：:]$", "", clean_note(body))
    if body in ("", "-", "--"):  # "**限制与说明**： -": none
        return
    for chip, f in facts.items():
        if (chips is None or chip in chips) and (only is None or chip in only):
            f.notes.append(body)


# --------------------------------------------------------------------------
# table format

TROW_RE = re.compile(r"^\|(.*)\|\s*$")


def table_prefix(page):
    """Bare names in a table are members of the page's class (Named Tensors: Tensor)."""
    return "torch.Tensor." if page.startswith("Named-Tensors") else ""


def parse_tables(path, text):
    out = []
    cols = None
    prefix = table_prefix(os.path.basename(path))
    for i, raw in enumerate(text.split("\n"), 1):
        line = raw.strip()
        m = TROW_RE.match(line)
        if not m:
            cols = None if not line.startswith("|") else cols
            continue
        cells = [c.strip() for c in m.group(1).split("|")]
        if cells and cells[0] == "API名称":
            cols = cells
            if "是否支持" not in cols or "限制与说明" not in cols:
                fail(path, i, "unknown table header %r" % line)
            continue
        if all(re.match(r"^:?-+:?$", c) for c in cells):
            continue
        if cols is None:
            continue
        if len(cells) != len(cols):
            fail(path, i, "row has %d cells, header %d" % (len(cells), len(cols)))
        name_cell, _, name_note = cells[0].partition("<br>")  # a name may carry a remark
        name = clean_name(name_cell)
        if name.startswith("Tensor."):
            name = "torch." + name
        elif "." not in name and prefix:
            name = prefix + name
        if not NAME_OK.match(name):
            fail(path, i, "cannot read an API name from %r" % cells[0])
        sup = cells[cols.index("是否支持")]
        note = cells[cols.index("限制与说明")]
        facts = {}
        if sup in ("-", "--"):  # listed without a status: as good as unverified
            out.append((name, facts))
            continue
        for part in re.split(r"<br>", sup):
            terms = TERM_RE.findall(part)
            mark = part.rsplit("：", 1)[-1].strip()
            if mark not in ("是", "否"):
                fail(path, i, "unknown support value %r" % sup)
            chips = [CHIPS[t] for t in terms if t in CHIPS] if terms else list(TABLE_CHIPS)
            if terms and len(chips) != len(terms):
                fail(path, i, "unknown product in %r" % sup)
            for c in chips:
                facts[c] = Fact("SUPPORTED" if mark == "是" else "UNSUPPORTED")
        if note not in ("-", "--", ""):
            for part in note.split("<br>"):
                add_note(facts, part)
        if name_note:
            add_note(facts, name_note)
        out.append((name, facts))
    return out


def parse_page(path, text):
    if re.search(r"^\|API名称\|", text, re.M):
        return parse_tables(path, text)
    return parse_sections(path, text)


# --------------------------------------------------------------------------
# sources

def git(gitdir, *args):
    return subprocess.run(["git", "--git-dir", gitdir] + list(args), check=True, capture_output=True).stdout


def read_sources(listfile):
    srcs = []
    with open(listfile, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            parts = line.split()
            if len(parts) != 3 or not re.match(r"^\d+\.\d+\.\d+$", parts[0]):
                raise ParseError("%s:%d: expected `VERSION REF PATH`" % (listfile, n))
            srcs.append(tuple(parts))
    return srcs


def read_manifest(args, ref):
    """(manifest path, date, [(page, commit, chars)]) of a `dir:MANIFEST` source."""
    mpath = os.path.join(os.path.dirname(args.sources), ref[len("dir:"):])
    date, pages = None, []
    with open(mpath, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            m = re.match(r"^#\s*date\s+(\d{4}-\d{2}-\d{2})\s*$", line)
            if m:
                date = m.group(1)
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            parts = line.split()
            if len(parts) != 3 or not re.match(r"^[0-9a-f]{40}$", parts[1]) or not parts[2].isdigit():
                raise ParseError("%s:%d: expected `PAGE COMMIT CHARS`" % (mpath, n))
            pages.append((parts[0], parts[1], int(parts[2])))
    if not date or not pages:
        raise ParseError("%s: needs a `# date YYYY-MM-DD` line and one line per page" % mpath)
    return mpath, date, pages


def pages_of_dir(args, ref, path):
    """[(display path, text)] of the local copies a manifest names, each checked against it."""
    if not args.pages:
        raise ParseError("%s: the pages of a `dir:` source need --pages DIR" % ref)
    mpath, _, pages = read_manifest(args, ref)
    d = os.path.join(args.pages, os.path.basename(path.rstrip("/")))
    have = set(n for n in os.listdir(d) if n.endswith(".md")) if os.path.isdir(d) else set()
    want = set(p for p, _, _ in pages)
    missing = sorted(want - have)
    if missing:
        raise ParseError("%s: %d of %d pages are not in %s (first: %s)" % (mpath, len(missing), len(want), d,
                                                                         missing[0]))
    if have - want:
        raise ParseError("%s: %s is not in the manifest" % (mpath, os.path.join(d, sorted(have - want)[0])))
    out = []
    for page, _, chars in sorted(pages):
        fp = os.path.join(d, page)
        with open(fp, encoding="utf-8", newline="") as f:
            text = f.read()
        if len(text) != chars:
            raise ParseError("%s: %d characters, the manifest says %d" % (fp, len(text), chars))
        out.append((fp, text))
    return out


def pages_of(args, ref, path):
    """[(display path, text)] of the .md pages of one version directory."""
    if ref.startswith("dir:"):
        return pages_of_dir(args, ref, path)
    if args.git:
        names = git(args.git, "ls-tree", "--name-only", ref, path + "/").decode().split("\n")
        names = sorted(n for n in names if n.endswith(".md"))
        return [(n, git(args.git, "show", "%s:%s" % (ref, n)).decode("utf-8")) for n in names]
    d = os.path.join(args.tree, path)
    names = sorted(n for n in os.listdir(d) if n.endswith(".md"))
    out = []
    for n in names:
        with open(os.path.join(d, n), encoding="utf-8") as f:
            out.append((path + "/" + n, f.read()))
    return out


def commit_of(args, ref):
    if ref.startswith("dir:"):  # the manifest's git blob id names the pages and their commits
        mpath, date, _ = read_manifest(args, ref)
        with open(mpath, "rb") as f:
            data = f.read()
        return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest(), date
    if args.git:
        c = git(args.git, "rev-parse", ref + "^{commit}").decode().strip()
        date = git(args.git, "log", "-1", "--format=%cs", c).decode().strip()
        return c, date
    return args.commit, args.date


def vkey(v):
    return tuple(int(x) for x in v.split("."))


# --------------------------------------------------------------------------
# output

def cstr(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def english(dt, dim, fb, note):
    parts = []
    for d in dt.split(";") if dt else []:
        p, _, names = d.partition(":")
        parts.append(("%s only %s" % ("`%s`" % p if p != "*" else "input", ", ".join(names.split(",")))))
    if dim:
        parts.append("at most %d dimensions" % dim)
    if fb:
        parts.append("may fall back to the CPU")
    rest = unparsed(note)
    if rest:
        parts.append("further notes (zh): " + rest)
    return "; ".join(parts)


def build(args):
    srcs = read_sources(args.sources)
    srcs.sort(key=lambda s: vkey(s[0]))
    versions = []
    per_api = {}  # api -> {version index: {chip: key}}
    counts = []
    for vi, (ver, ref, path) in enumerate(srcs):
        commit, date = commit_of(args, ref)
        pages = pages_of(args, ref, path)
        if not pages:
            raise ParseError("%s %s: no pages under %s" % (ver, ref, path))
        seen = {}
        for pth, text in pages:
            entries = parse_page(pth, text)
            for api, facts in entries:
                if api in seen:
                    continue  # the same API on a second page (Named Tensors repeats Tensor methods)
                seen[api] = pth
                per_api.setdefault(api, {})[vi] = {c: f.key() for c, f in facts.items()}
        # the products a list covers: those most of its APIs name (a few
        # entries also name older products; those stay per-row facts)
        chips = [c for c in CHIP_ORDER if 2 * sum(c in per_api[a][vi] for a in seen) > len(seen)]
        versions.append((ver, ref, commit, date, path, chips))
        counts.append(len(seen))
    rows = []
    for api in sorted(per_api, key=lambda a: a.encode()):
        byv = per_api[api]
        # per chip: runs of consecutive versions with the same fact
        cells = {}  # (vfrom, vto, key) -> set(chips)
        for chip in CHIP_ORDER:
            run = None
            for vi in range(len(versions) + 1):
                k = byv.get(vi, {}).get(chip) if vi < len(versions) else None
                if run and k == run[2] and vi == run[1] + 1:
                    run = (run[0], vi, k)
                    continue
                if run:
                    cells.setdefault(run, set()).add(chip)
                run = (vi, vi, k) if k is not None else None
        for (vf, vt, k), chips in sorted(cells.items(), key=lambda c: (c[0][0], c[0][1], CHIP_ORDER.index(min(c[1], key=CHIP_ORDER.index)))):
            rows.append((api, vf, vt, [c for c in CHIP_ORDER if c in chips], k))
    return versions, counts, rows


def emit(out, versions, counts, rows, sources):
    w = out.write
    w("/* Operator coverage (ASC219-ASC223): the torch_npu native-API support lists.\n")
    w(" * GENERATED by tests/kbgen/gen_support.py from %s; do not edit by hand.\n" % sources)
    w(" * Source: repository Ascend/pytorch, one page directory per version:\n")
    for (ver, ref, commit, date, path, _), n in zip(versions, counts):
        w(" *   %-7s %s @ %s (%s, %s): %d APIs\n" % (ver, path, commit, ref, date, n))
    if any(v[1].startswith("dir:") for v in versions):
        w(" * A `dir:` version was read from copies of its pages; @ is the git blob id of\n"
          " * that manifest (next to the source list), which names each page's commit.\n")
    w(" * Regenerate: see README.md, \"Operator coverage\". */\n")
    w("#ifdef KB_SUPPORT_VERSIONS\n")
    for (ver, ref, commit, date, path, chips), n in zip(versions, counts):
        w("    {%s, %s, %s, %s, %s, %s, %d},\n" % (cstr(ver), cstr(ref), cstr(commit), cstr(date), cstr(path),
                                              "|".join(chips) or "0", n))
    w("#endif\n#ifdef KB_SUPPORT_ROWS\n")
    for api, vf, vt, chips, (status, dt, dim, fb, note) in rows:
        w("    {%s, %d, %d, %s, KBS_%s, %s, %d, %s, %s, %s, %s},\n" % (
            cstr(api), vf, vt, "|".join(chips), status, "true" if fb else "false", dim,
            "true" if unparsed(note) else "false", cstr(dt), cstr(english(dt, dim, fb, note)), cstr(note)))
    w("#endif\n")


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--git", help="git directory of an Ascend/pytorch copy")
    g.add_argument("--tree", help="directory holding the page directories")
    ap.add_argument("--commit", default="unknown", help="commit named in the header (--tree)")
    ap.add_argument("--date", default="unknown", help="commit date named in the header (--tree)")
    ap.add_argument("--sources", required=True, help="file of `VERSION REF PATH` lines")
    ap.add_argument("--pages", help="directory of the page copies of the `dir:` sources")
    ap.add_argument("-o", "--output", help="output file (default: stdout)")
    args = ap.parse_args(argv)
    try:
        versions, counts, rows = build(args)
    except (ParseError, subprocess.CalledProcessError, OSError, UnicodeDecodeError) as e:
        detail = e.stderr.decode().strip() if isinstance(e, subprocess.CalledProcessError) else str(e)
        sys.stderr.write("gen_support: error: %s\n" % detail)
        return 1
    name = os.path.relpath(args.sources) if not os.path.isabs(args.sources) else os.path.basename(args.sources)
    if args.output:
        tmp = args.output + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            emit(f, versions, counts, rows, name)
        os.replace(tmp, args.output)
    else:
        emit(sys.stdout, versions, counts, rows, name)
    for (ver, *_), n in zip(versions, counts):
        sys.stderr.write("gen_support: %s: %d APIs\n" % (ver, n))
    sys.stderr.write("gen_support: %d rows\n" % len(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
"""Checks that every relative link in the repository's Markdown pages leads somewhere.

    Scripts/check-doc-links.py

For README.md, CHANGELOG.md, Documentation/ and every other Markdown file outside hidden and
build directories (DocC catalogs excluded: `docc --warnings-as-errors` checks their links), each
link or image `[text](target)` and reference definition `[name]: target` that is not a URL
must name a file or directory that exists, and a `#fragment` must be a heading of the Markdown
file it names (GitHub's anchors: lower case, punctuation dropped, spaces as hyphens, `-1`, `-2`
for repeats). Code spans and fenced blocks are not links. Exit status 1 with a line per broken
link.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", re.M)
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$", re.M)
FENCED = re.compile(r"^\s*(```|~~~).*?^\s*\1\s*$", re.S | re.M)
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def pages():
    for path in sorted(ROOT.rglob("*.md")):
        parts = path.relative_to(ROOT).parts
        if any(p.startswith(".") for p in parts) or any(p.endswith(".docc") for p in parts):
            continue
        yield path


def prose(text):
    """The text without fenced blocks and code spans, whose brackets are code, not links."""
    return re.sub(r"`[^`\n]*`", "", FENCED.sub("", text))


def anchors(path, cache={}):
    if path not in cache:
        found, seen = set(), {}
        for heading in HEADING.findall(FENCED.sub("", path.read_text())):
            slug = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip().lower())
            slug = re.sub(r"[^\w\- ]", "", slug.replace("`", "")).replace(" ", "-")
            count = seen.get(slug, 0)
            seen[slug] = count + 1
            found.add(slug if count == 0 else f"{slug}-{count}")
        found.update(re.findall(r"<a (?:name|id)=\"([^\"]+)\"", path.read_text()))
        cache[path] = found
    return cache[path]


def main():
    problems, checked, files = [], 0, 0
    for page in pages():
        files += 1
        text = prose(page.read_text())
        for target in LINK.findall(text) + REFERENCE.findall(text):
            if SCHEME.match(target):
                continue
            checked += 1
            where, _, fragment = target.partition("#")
            destination = (page.parent / where).resolve() if where else page
            name = page.relative_to(ROOT)
            if not destination.exists():
                problems.append(f"{name}: link to {target}: no such file")
            elif fragment and destination.suffix == ".md" and fragment not in anchors(destination):
                problems.append(f"{name}: link to {target}: no such heading in {destination.name}")
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        return 1
    print(f"check-doc-links: {checked} relative links in {files} Markdown files, each leads somewhere")
    return 0


if __name__ == "__main__":
    sys.exit(main())

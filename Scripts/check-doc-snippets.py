#!/usr/bin/env python3
"""Checks that the code the documentation shows is code the build compiles and the tests run.

Every ```swift block in a DocC catalog (Sources/*/*.docc/**/*.md), in README.md or in a page of
Documentation/ that shows library code (LIBRARY_PAGES) must equal,
character for character, a region of a snippet file in Tests/DocumentationSnippetTests — the
test target that compiles and runs that code:

    // snippet: bounce-a-midi-file
    let song = try MIDIFile(contentsOf: url)
    // end snippet

A region is compared with its common indentation removed, so it may sit inside a function.
Every region must be shown somewhere, so a snippet cannot outlive the text that used it.

Every line of a ```js block in a catalog must be a line of the WebAssembly kit (WebAssembly/*.js,
*.mjs, *.html), whose scripts the Node and Chromium tests run: the articles quote them.
Exit status 1 with a line per mismatch.
"""
import pathlib
import re
import sys
import textwrap

ROOT = pathlib.Path(__file__).resolve().parent.parent
SNIPPETS = ROOT / "Tests" / "DocumentationSnippetTests"
BEGIN = re.compile(r"^\s*// snippet: ([A-Za-z0-9-]+)\s*$")
END = re.compile(r"^\s*// end snippet\s*$")
FENCE = re.compile(r"^(\s*)```(\S*)\s*$")
# Documentation/ pages whose ```swift blocks are library code (a manifest excerpt, as in
# packages.md, is not).
LIBRARY_PAGES = ["Documentation/sfz.md", "Documentation/tuning.md"]


def snippet_regions():
    regions = {}
    problems = []
    for path in sorted(SNIPPETS.rglob("*.swift")):
        name, lines = None, []
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if name is None:
                match = BEGIN.match(line)
                if match:
                    name, lines, start = match.group(1), [], number
                    if name in regions:
                        problems.append(f"{path.relative_to(ROOT)}:{number}: snippet '{name}' defined twice")
            elif END.match(line):
                regions[name] = (textwrap.dedent("\n".join(lines)).strip("\n"), f"{path.relative_to(ROOT)}:{start}")
                name = None
            elif BEGIN.match(line):
                problems.append(f"{path.relative_to(ROOT)}:{number}: snippet '{name}' not ended before the next")
            else:
                lines.append(line)
        if name is not None:
            problems.append(f"{path.relative_to(ROOT)}:{start}: snippet '{name}' has no '// end snippet'")
    return regions, problems


def article_blocks(languages):
    paths = sorted(ROOT.glob("Sources/*/*.docc/**/*.md"))
    if "swift" in languages:
        paths.append(ROOT / "README.md")
        paths += [ROOT / page for page in LIBRARY_PAGES]
    for path in paths:
        block, language, indent = None, None, ""
        for number, line in enumerate(path.read_text().splitlines(), 1):
            match = FENCE.match(line)
            if block is None and match:
                block, language, indent, start = [], match.group(2), match.group(1), number
            elif block is not None and match and match.group(2) == "":
                if language in languages:
                    text = "\n".join(l[len(indent):] if l.startswith(indent) else l for l in block)
                    yield path, start, text.strip("\n")
                block = None
            elif block is not None:
                block.append(line)


def main():
    regions, problems = snippet_regions()
    used = set()
    blocks = 0
    by_text = {text: name for name, (text, _) in regions.items()}
    for path, line, text in article_blocks({"swift"}):
        blocks += 1
        name = by_text.get(text)
        if name is None:
            problems.append(f"{path.relative_to(ROOT)}:{line}: this ```swift block is not a snippet region of "
                            f"{SNIPPETS.relative_to(ROOT)} (copy it there between '// snippet: NAME' and "
                            f"'// end snippet', or paste the region back)")
        else:
            used.add(name)
    for name, (_, where) in sorted(regions.items()):
        if name not in used:
            problems.append(f"{where}: snippet '{name}' is shown by no article")
    kit = set()
    for pattern in ("*.js", "*.mjs", "*.html"):
        for path in (ROOT / "WebAssembly").glob(pattern):
            kit.update(line.strip() for line in path.read_text().splitlines())
    for path, line, text in article_blocks({"js"}):
        blocks += 1
        for offset, code in enumerate(text.splitlines()):
            if code.strip() and code.strip() not in kit:
                problems.append(f"{path.relative_to(ROOT)}:{line + 1 + offset}: this JavaScript line is not a "
                                f"line of the WebAssembly kit (WebAssembly/): {code.strip()}")
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        return 1
    print(f"check-doc-snippets: {blocks} code blocks, each compiled or quoted from the kit")
    return 0


if __name__ == "__main__":
    sys.exit(main())

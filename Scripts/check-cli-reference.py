#!/usr/bin/env python3
"""Checks Documentation/cli.md against the `--help` of a built `polyphon`.

    Scripts/check-cli-reference.py [POLYPHON]      # default: .build/debug/polyphon

- The commands table lists exactly the subcommands `polyphon --help` lists.
- Every option a command's section names exists in that command's help, with the same short
  name (`-o, --output`), and every option of the help is named in the section (the bank option
  `-s, --soundfont` may be left to "Rules every command follows").
- The options of the shared "Synthesis options" table exist in every command that makes sound
  (or in those its row names).
- Where the text lists an option's values (`--interpolation linear|cubic|sinc`) or its default
  in its table row ("default 10"), they are the help's.
- `polyphon --version` is documented.

`polyphon jam` hands its options to the jam server: they are checked against the server's own
help when it has been built (Jam/.build/{debug,release}/polyphon-jam), else against the
synopsis `polyphon help jam` prints. Exit status 1 with a line per mismatch.
"""
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOC = ROOT / "Documentation" / "cli.md"
SOUND_COMMANDS = ["render", "batch", "play", "synth"]
IGNORED = {"--help", "--version"}
UNKNOWN = "?"   # a short name the help does not show
LONG = re.compile(r"(?<![\w-])(--[a-z][a-z0-9-]*)")
# "-o, --output", "-s/--soundfont", "`-q`, `--quiet`"
PAIR = re.compile(r"(?<![\w-])-([a-zA-Z])`?(?:, ?|/)`?(--[a-z][a-z0-9-]*)")


class Help:
    """One command's options as its help lists them."""

    def __init__(self, text):
        self.text = text
        self.options = {}   # long name -> {"short", "values", "default"}
        entry = None
        in_options = False
        for line in text.splitlines():
            if re.match(r"^[A-Z ]+:", line):
                in_options = line.startswith("OPTIONS:")
                continue
            if not in_options:
                continue
            match = re.match(r"^  (-[a-zA-Z], )?(--[a-z][a-z0-9-]*)((?:, --[a-z][a-z0-9-]*)*)", line)
            if match:
                names = [match.group(2)] + re.findall(r"--[a-z][a-z0-9-]*", match.group(3) or "")
                short = match.group(1)[1] if match.group(1) else None
                entry = {"short": short, "text": line}
                for name in names:
                    self.options[name] = entry
            elif entry is not None:
                entry["text"] += " " + line.strip()
        for entry in self.options.values():
            values = re.search(r"\(values: ([^;)]*)", entry["text"])
            entry["values"] = {v.strip() for v in values.group(1).split(",")} if values else None
            default = re.search(r"default: ([^)]*)\)", entry["text"])
            entry["default"] = default.group(1).strip() if default else None


def run(*arguments):
    result = subprocess.run(list(arguments), capture_output=True, text=True)
    return result.stdout + result.stderr


def sections(text):
    """`## name` → its text; the text before the first `##` under ""."""
    parts = {}
    name, lines = "", []
    for line in text.splitlines():
        match = re.match(r"^## (.*)$", line)
        if match:
            parts[name] = "\n".join(lines)
            name, lines = match.group(1).strip(), []
        else:
            lines.append(line)
    parts[name] = "\n".join(lines)
    return parts


def number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def main():
    polyphon = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / ".build" / "debug" / "polyphon")
    doc = DOC.read_text()
    parts = sections(doc)
    problems = []

    # The commands.
    top = run(polyphon, "--help")
    listed = re.findall(r"^  ([a-z][a-z-]*)  ", top.split("SUBCOMMANDS:")[1], re.M)
    table = re.findall(r"^\| \[`([a-z-]+)`\]\(#", doc, re.M)
    for name in sorted(set(listed) - set(table)):
        problems.append(f"command '{name}' is in `polyphon --help` but not in the commands table")
    for name in sorted(set(table) - set(listed)):
        problems.append(f"command '{name}' is in the commands table but not in `polyphon --help`")
    for name in listed:
        if name not in parts:
            problems.append(f"command '{name}' has no '## {name}' section")
    if "polyphon --version" not in doc:
        problems.append("`polyphon --version` is not documented")

    # Each command's help.
    helps = {}
    for name in listed:
        if name == "batch":
            helps[name] = [Help(run(polyphon, "help", "batch", "render")), Help(run(polyphon, "help", "batch", "merge-reports"))]
        elif name == "jam":
            servers = [ROOT / "Jam" / ".build" / c / "polyphon-jam" for c in ("release", "debug")]
            server = next((s for s in servers if s.exists()), None)
            if server:
                helps[name] = [Help(run(str(server), "--help"))]
            else:
                text = run(polyphon, "help", "jam")
                synopsis = Help("")
                # The synopsis gives names only: short names, values and defaults go unchecked.
                for option in LONG.findall(text.split("USAGE:")[0]):
                    synopsis.options[option] = {"short": UNKNOWN, "values": None, "default": None}
                helps[name] = [synopsis]
                print("check-cli-reference: jam server not built; its options checked against `polyphon help jam`")
        else:
            helps[name] = [Help(run(polyphon, "help", name))]

    def options_of(name):
        merged = {}
        for h in helps[name]:
            merged.update(h.options)
        return merged

    rules = parts.get("Rules every command follows", "")
    for name in listed:
        section = parts.get(name, "")
        options = options_of(name)
        named = set(LONG.findall(section))
        for option in sorted(named - set(options) - IGNORED):
            problems.append(f"## {name}: {option} is not an option of `polyphon {name}`")
        for option in sorted(set(options) - named - IGNORED):
            if option == "--soundfont" and "--soundfont" in rules:
                continue
            problems.append(f"## {name}: `polyphon {name}` has {option}, which the section does not name")
        for short, option in PAIR.findall(section):
            if option in options and options[option]["short"] not in (short, UNKNOWN):
                have = options[option]["short"]
                problems.append(f"## {name}: -{short}, {option} is " + (f"-{have}, {option}" if have else f"{option} alone") + " in the help")
        for option, entry in options.items():
            if entry["short"] not in (None, UNKNOWN) and option not in IGNORED:
                pairs = PAIR.findall(section) + (PAIR.findall(rules) if option == "--soundfont" else [])
                if (entry["short"], option) not in pairs:
                    problems.append(f"## {name}: the help has -{entry['short']}, {option}; the text never says -{entry['short']}")
        check_values_and_defaults(f"## {name}", section, options, problems)

    # The shared synthesis options.
    # Each row's options (first cell) belong to the commands the row names as `render` …, or
    # to all four.
    shared = rules.split("**Synthesis options**")[1] if "**Synthesis options**" in rules else ""
    for line in shared.splitlines():
        cells = line.split(" | ")
        if not line.startswith("| `-") or len(cells) < 2:
            continue
        scope = [n for n in SOUND_COMMANDS if f"`{n}`" in cells[1]] or SOUND_COMMANDS
        for option in LONG.findall(cells[0]):
            for name in scope:
                if name in helps and option not in options_of(name):
                    problems.append(f"Rules: the synthesis option {option} is not an option of `polyphon {name}`")
    check_values_and_defaults("Rules", shared, options_of("render") if "render" in helps else {}, problems)

    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        return 1
    count = sum(len(options_of(n)) for n in listed)
    print(f"check-cli-reference: {len(listed)} commands and {count} options agree with --help")
    return 0


def check_values_and_defaults(where, text, options, problems):
    for option, values in re.findall(r"`(--[a-z][a-z0-9-]*) ([a-z0-9]+(?:\\?\|[a-z0-9]+)+)", text):
        entry = options.get(option)
        listed = set(values.replace("\\", "").split("|"))
        if entry and entry["values"] is not None and listed != entry["values"]:
            problems.append(f"{where}: {option} takes {', '.join(sorted(entry['values']))} by the help, "
                            f"not {', '.join(sorted(listed))}")
    for line in text.splitlines():
        row = re.match(r"^\| `(--[a-z][a-z0-9-]*)[^|]*\|(.*)\|\s*$", line)
        if not row:
            continue
        entry = options.get(row.group(1))
        default = re.search(r"default (?:is )?(-?[0-9][0-9.]*)", row.group(2))
        if entry and default and entry["default"] is not None:
            ours, theirs = number(default.group(1).rstrip(".")), number(entry["default"])
            if ours is not None and theirs is not None and ours != theirs:
                problems.append(f"{where}: {row.group(1)} defaults to {entry['default']} by the help, not {default.group(1)}")


if __name__ == "__main__":
    sys.exit(main())

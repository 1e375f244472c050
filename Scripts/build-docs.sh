#!/usr/bin/env bash
# Builds the DocC catalog of every library product with the toolchain's `docc`, failing on any
# warning (unresolved symbol links, undocumented parameters, …), after checking that every
# ```swift block in the catalogs is a region of a compiled snippet file
# (Scripts/check-doc-snippets.py) and that every relative link of the Markdown pages outside
# the catalogs leads somewhere (Scripts/check-doc-links.py).
#
#   Scripts/build-docs.sh [--reuse-build] [OUTDIR]     # default OUTDIR: .build/documentation
#
# Symbol graphs come from the modules the debug build already made (swift-symbolgraph-extract
# reads .swiftmodule files), so no compiler flag changes and nothing is compiled twice. Without
# --reuse-build the script first builds the library targets (a no-op when they are up to date);
# CI passes --reuse-build after `swift test`, whose build holds every module. Each catalog is
# written to OUTDIR/<Module>.doccarchive; `docc preview` or any static file server shows it.
set -euo pipefail
cd "$(dirname "$0")/.."

reuse=no
if [ "${1:-}" = "--reuse-build" ]; then reuse=yes; shift; fi
out="${1:-.build/documentation}"

# Library products, each with its catalog Sources/<Module>/<Module>.docc.
modules=(PolyphonMIDICore PolyphonMIDI PolyphonSoundFontCore PolyphonSoundFont PolyphonSFZCore PolyphonSFZ
         PolyphonSynth PolyphonBuiltInBank PolyphonAudio PolyphonLive PolyphonPlayback PolyphonBatch PolyphonWebKit)
# The list is the manifest's: a library product added without a catalog here fails the build.
products="$(swift package dump-package | python3 -c 'import json, sys; print(" ".join(sorted(p["name"] for p in json.load(sys.stdin)["products"] if "library" in p["type"])))')"
listed="$(printf '%s\n' "${modules[@]}" | LC_ALL=C sort | paste -sd ' ')"
if [ "$products" != "$listed" ]; then
    echo "build-docs: the library products are \"$products\", the catalogs built \"$listed\"" >&2
    exit 1
fi
# Modules whose `@_exported import` makes their core part of what a user of them sees: their
# catalogs document the core's symbols too.
reexports() {
    case "$1" in
        PolyphonMIDI) echo PolyphonMIDICore ;;
        PolyphonSoundFont) echo PolyphonSoundFontCore ;;
        PolyphonSFZ) echo PolyphonSFZCore ;;
    esac
}

swift_bin="$(dirname "$(readlink -f "$(command -v swift)")")"
docc="${DOCC:-$(command -v docc || echo "$swift_bin/docc")}"
extract="${SYMBOLGRAPH_EXTRACT:-$(command -v swift-symbolgraph-extract || echo "$swift_bin/swift-symbolgraph-extract")}"

start=$SECONDS
python3 Scripts/check-doc-snippets.py
python3 Scripts/check-doc-links.py

if [ "$reuse" = no ]; then
    # The five targets that together depend on every other library target.
    for target in PolyphonBatch PolyphonLive PolyphonBuiltInBank PolyphonWebKit PolyphonSFZ; do
        swift build --target "$target" >/dev/null
    done
fi
bin="$(swift build --show-bin-path)"
moduledir="$bin/Modules"
[ -d "$moduledir" ] || moduledir="$bin"
triple="$(swift -print-target-info | sed -n 's/^ *"triple": "\(.*\)",$/\1/p' | head -1)"
sdk=()
if command -v xcrun >/dev/null; then sdk=(-sdk "$(xcrun --show-sdk-path)"); fi
# C modules of the dependencies (swift-atomics' shims), which the .swiftmodule files name but
# do not carry.
modulemaps=()
while IFS= read -r map; do modulemaps+=(-Xcc "-fmodule-map-file=$map"); done < <(
    find "$(dirname "$(dirname "$bin")")/checkouts" -name module.modulemap -path "*/include/*" 2>/dev/null | sort)

graphs="$out/symbol-graphs"
rm -rf "$out"
mkdir -p "$graphs"
failed=()
for module in "${modules[@]}"; do
    mkdir -p "$graphs/$module"
    allowed=()
    core="$(reexports "$module")"
    if [ -n "$core" ]; then allowed=(-experimental-allowed-reexported-modules="$core"); fi
    "$extract" -module-name "$module" -target "$triple" "${sdk[@]}" -I "$moduledir" "${modulemaps[@]}" \
        -minimum-access-level public -skip-inherited-docs -emit-extension-block-symbols \
        "${allowed[@]}" -output-dir "$graphs/$module"
    if ! "$docc" convert "Sources/$module/$module.docc" \
            --additional-symbol-graph-dir "$graphs/$module" \
            --output-path "$out/$module.doccarchive" \
            --fallback-display-name "$module" --fallback-bundle-identifier "polyphon.$module" \
            --warnings-as-errors >"$out/$module.log" 2>&1; then
        cat "$out/$module.log" >&2
        failed+=("$module")
    fi
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "build-docs: warnings or errors in ${failed[*]}" >&2
    exit 1
fi
echo "build-docs: ${#modules[@]} catalogs in $out, no warnings ($((SECONDS - start)) s)"

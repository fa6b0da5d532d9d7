#!/usr/bin/env bash
# perfzero report's HTML page opened in a real headless Chromium with no network: it renders, its
# tables and charts are in the DOM Chromium built, it loads nothing from anywhere, and a screenshot
# is taken (kept beside the report for a person to look at).
# Exit 77 (skipped) when Chromium is not installed, except with CI=true, where that fails.
set -euo pipefail
perfzero=$1 source_dir=$2 work=$3
chromium=$(command -v chromium || true)
if [ -z "$chromium" ]; then
  echo "chromium is not installed (scripts/install-deps.sh installs it)"
  [ "${CI:-}" = "true" ] && exit 1
  exit 77
fi
rm -rf "$work"
mkdir -p "$work"
for shape in c7i.large c7g.large my-laptop; do
  "$perfzero" --benchmark_methods=sanity.Sanity.benchmark_noop,sanity.Sanity.benchmark_sleep --benchmark_num_trials=3 \
    --instance_type="$shape" --output_dir "$work/runs/$shape" >/dev/null
done
"$perfzero" --benchmark_methods=sanity.Sanity.benchmark_crash --instance_type=c7g.large \
  --output_dir "$work/runs/crash" >/dev/null || true
"$perfzero" report "$work/runs" --catalog "$source_dir/infra/pricing/catalog.yaml" --out "$work/report" \
  --baseline c7i.large 2>"$work/report.log"
page=$work/report/report.html

# Nothing on the page may come from elsewhere: no script, stylesheet, image, font or frame source.
if grep -Eio '<script|<link|<img|<iframe|@import|url\(|src=' "$page"; then
  echo "FAIL: the page refers to an outside resource"; exit 1
fi

flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking
       --disable-component-update --disable-sync --disable-extensions --proxy-server=127.0.0.1:9
       --user-data-dir="$work/profile")
timeout 120 "$chromium" "${flags[@]}" --dump-dom "file://$page" >"$work/dom.html" 2>"$work/chromium-dom.log"
for needle in 'class="heatmap"' 'class="bars"' 'class="scatter"' 'id="configurations"' 'class="front"' \
              'c7i.large' 'my-laptop' 'crashed 1/1' 'system info' 'class="tag fast"' 'class="tag cheap"'; do
  grep -qF "$needle" "$work/dom.html" || { echo "FAIL: the rendered page lacks $needle"; exit 1; }
done
timeout 120 "$chromium" "${flags[@]}" --window-size=1280,2400 --screenshot="$work/report/screenshot.png" \
  "file://$page" >"$work/chromium-shot.log" 2>&1
size=$(stat -c %s "$work/report/screenshot.png")
# A blank page compresses to a few kB; the report's tables and charts make far more.
[ "$size" -gt 40000 ] || { echo "FAIL: the screenshot is $size bytes: blank?"; exit 1; }
echo "report HTML rendered by $("$chromium" --version 2>/dev/null | head -1): screenshot $work/report/screenshot.png ($size bytes)"

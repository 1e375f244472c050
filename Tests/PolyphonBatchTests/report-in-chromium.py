#!/usr/bin/python3
"""Opens a batch's report page in headless Chromium and checks it as a reader would.

    report-in-chromium.py PAGE EXPECTED.json SCREENSHOT.png

EXPECTED.json: {"inputs": [paths], "failed": {path: words its error must contain}}. Checks
that every input is listed once, failures first; every picture loads (scrolled into view, as
they load lazily), and the first opens full size in the page; every audio player's file loads
its metadata; the failed inputs show as failed with their reason; sorting by duration, peak and
input works both ways; the status filter hides failures. Prints what it found as JSON, takes a
1600-pixel-wide screenshot. Exit 2 when Chromium or selenium is missing, 1 when a check fails.
"""
import json, os, shutil, sys, time

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
except ImportError:
    print("python3-selenium is not installed", file=sys.stderr)
    sys.exit(2)

page, expected_path, screenshot = sys.argv[1:4]
expected = json.load(open(expected_path))
binary = shutil.which("chromium") or shutil.which("chromium-browser")
driver_path = shutil.which("chromedriver") or "/usr/bin/chromedriver"
if not binary or not os.path.exists(driver_path):
    print("chromium or chromium-driver is not installed", file=sys.stderr)
    sys.exit(2)
options = webdriver.ChromeOptions()
for flag in ["--headless=new", "--no-sandbox", "--autoplay-policy=no-user-gesture-required",
             "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars", "--allow-file-access-from-files"]:
    options.add_argument(flag)
options.binary_location = binary
driver = webdriver.Chrome(service=Service(driver_path), options=options)
driver.set_script_timeout(60)
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)


def rows():
    return driver.execute_script("""
        return [...document.querySelectorAll('#report tbody tr')].map((tr) => ({
          input: tr.dataset.input, status: tr.dataset.status, text: tr.innerText, name: tr.children[1].textContent,
          duration: tr.children[2].textContent, peak: tr.children[3].textContent }));""")


def seconds(clock):
    if not clock:
        return None
    parts = clock.split(":")
    return sum(float(p) * 60 ** (len(parts) - 1 - k) for k, p in enumerate(parts))


def number(text):
    return float(text) if text else None


def ordered(values, descending):
    present = [v for v in values if v is not None]
    # Missing values come last whichever way the column sorts.
    check(values[:len(present)] == present, f"missing values not last: {values}")
    check(present == sorted(present, reverse=descending), f"not sorted {'down' if descending else 'up'}: {values}")


def sort_by(key):
    driver.find_element(By.CSS_SELECTOR, f'#report th[data-key="{key}"] button').click()
    return driver.find_element(By.CSS_SELECTOR, f'#report th[data-key="{key}"]').get_attribute("aria-sort")


try:
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 1600, "height": 1000, "deviceScaleFactor": 1, "mobile": False})
    driver.get("file://" + os.path.abspath(page))
    listed = rows()
    inputs = [r["input"] for r in listed]
    check(sorted(inputs) == sorted(expected["inputs"]), f"listed {inputs}, expected {expected['inputs']}")
    statuses = [r["status"] for r in listed]
    failed_count = sum(1 for s in statuses if s in ("failed", "timeout"))
    check(all(s in ("failed", "timeout") for s in statuses[:failed_count]), f"failures not first: {statuses}")
    for path, words in expected["failed"].items():
        row = next((r for r in listed if r["input"] == path), None)
        check(row is not None and row["status"] == "failed", f"{path} not shown as failed: {row}")
        if row:
            check(words in row["text"], f"{path}: reason '{words}' not in '{row['text']}'")

    # Every picture loads (lazy: scrolled into view first) and opens full size.
    images = driver.find_elements(By.CSS_SELECTOR, "img.thumb")
    ok_rows = [r for r in listed if r["status"] == "ok"]
    check(len(images) == len(ok_rows), f"{len(images)} pictures for {len(ok_rows)} rendered inputs")
    loaded = []
    for image in images:
        driver.execute_script("arguments[0].scrollIntoView()", image)
        deadline = time.time() + 20
        while time.time() < deadline and not driver.execute_script(
                "return arguments[0].complete && arguments[0].naturalWidth > 0", image):
            time.sleep(0.1)
        loaded.append(driver.execute_script("return [arguments[0].naturalWidth, arguments[0].naturalHeight]", image))
    check(all(w == 1600 and h > 800 for w, h in loaded), f"pictures: {loaded}")
    if images:
        driver.execute_script("window.scrollTo(0, 0)")
        images[0].find_element(By.XPATH, "..").click()
        time.sleep(0.5)
        full = driver.execute_script("""const v = document.getElementById('viewer'); const i = v.querySelector('img');
            return [v.hidden, i.naturalWidth, i.getBoundingClientRect().width];""")
        check(full[0] is False and full[1] == 1600 and full[2] == 1600, f"full-size viewer: {full}")
        driver.find_element(By.ID, "viewer").click()

    # Every audio player's file loads.
    audio = driver.execute_async_script("""const done = arguments[arguments.length - 1];
        const players = [...document.querySelectorAll('audio')];
        Promise.all(players.map((a) => new Promise((resolve) => {
          a.addEventListener('loadedmetadata', () => resolve(a.duration), { once: true });
          a.addEventListener('error', () => resolve(-1), { once: true });
          a.preload = 'metadata'; a.load();
        }))).then(done);""")
    check(len(audio) == len(ok_rows) and all(d > 0 for d in audio), f"audio durations: {audio}")

    # Sorting, both ways, by a number column and by name.
    for key, value in (("duration", lambda r: seconds(r["duration"])), ("peak", lambda r: number(r["peak"]))):
        check(sort_by(key) == "ascending", f"{key}: not ascending")
        ordered([value(r) for r in rows()], descending=False)
        check(sort_by(key) == "descending", f"{key}: not descending")
        ordered([value(r) for r in rows()], descending=True)
    sort_by("input")
    names = [r["name"] for r in rows()]
    check(names == sorted(names, key=str.lower), f"not sorted by input: {names}")

    # The status filter.
    driver.find_element(By.CSS_SELECTOR, 'nav input[data-status="failed"]').click()
    check(all(r["status"] != "failed" for r in rows()), "failed rows still shown with failed unticked")
    driver.find_element(By.CSS_SELECTOR, 'nav input[data-status="failed"]').click()
    sort_by("status")
    driver.execute_script("window.scrollTo(0, 0)")
    time.sleep(0.3)
    driver.save_screenshot(screenshot)
    logs = [entry for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"]
    check(not logs, f"console errors: {logs}")
    print(json.dumps({"listed": inputs, "statuses": statuses, "pictures": loaded, "audio": audio,
                      "failures": failures}))
finally:
    driver.quit()
sys.exit(1 if failures else 0)

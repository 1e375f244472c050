#!/usr/bin/python3
"""Renders MIDI events through polyphon.wasm in an AudioWorklet in headless Chromium.

    run-in-chromium.py MODULE.wasm BANK.sf2 EVENTS.json SECONDS RATE OUT.f32

Serves the module, the JavaScript, the bank and worklet-test.html from a temporary directory on
127.0.0.1, opens the page in headless Chromium (chromium + chromium-driver + python3-selenium),
waits for window.result and writes the left then the right channel as float32 to OUT.f32.
Exit 2 when Chromium or selenium is missing, 1 when the page fails.
"""
import base64, functools, http.server, json, os, shutil, sys, tempfile, threading, urllib.parse

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
except ImportError:
    print("python3-selenium is not installed", file=sys.stderr)
    sys.exit(2)

module, bank, events_path, seconds, rate, out = sys.argv[1:7]
here = os.path.dirname(os.path.abspath(__file__))
site = tempfile.mkdtemp(prefix="polyphon-chromium-")
try:
    shutil.copy(module, os.path.join(site, "polyphon.wasm"))
    shutil.copy(bank, os.path.join(site, "bank.sf2"))
    for name in ["polyphon.js", "polyphon-worklet.js"]:
        shutil.copy(os.path.join(here, "..", name), site)
    shutil.copy(os.path.join(here, "worklet-test.html"), site)

    class Quiet(http.server.SimpleHTTPRequestHandler):
        extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                          ".js": "text/javascript", ".wasm": "application/wasm"}
        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=site))
    threading.Thread(target=server.serve_forever, daemon=True).start()

    options = webdriver.ChromeOptions()
    for flag in ["--headless=new", "--no-sandbox", "--autoplay-policy=no-user-gesture-required",
                 "--disable-gpu", "--disable-dev-shm-usage"]:
        options.add_argument(flag)
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    if not binary or not os.path.exists(driver_path):
        print("chromium or chromium-driver is not installed", file=sys.stderr)
        sys.exit(2)
    options.binary_location = binary
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    try:
        with open(events_path) as f:
            events = f.read()
        query = urllib.parse.urlencode({"events": events, "seconds": seconds, "rate": rate})
        driver.set_script_timeout(120)
        driver.get(f"http://127.0.0.1:{server.server_port}/worklet-test.html?{query}")
        result = driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const poll = () => window.result ? done(window.result) : setTimeout(poll, 50);
            poll();""")
    finally:
        driver.quit()
        server.shutdown()
    if "error" in result:
        print(result["error"], file=sys.stderr)
        sys.exit(1)
    with open(out, "wb") as f:
        f.write(base64.b64decode(result["left"]))
        f.write(base64.b64decode(result["right"]))
    print(f"rendered {seconds} s at {result['sampleRate']} Hz in Chromium")
finally:
    shutil.rmtree(site, ignore_errors=True)

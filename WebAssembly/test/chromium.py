"""Opens a page of files in headless Chromium and returns what it leaves in window.result.

Shared by run-in-chromium.py and bench-in-chromium.py: the files are served from a temporary
directory on 127.0.0.1, the page is opened in headless Chromium (chromium + chromium-driver +
python3-selenium) with the flags an audio page needs, and window.result is polled for. The jam
page's tests start their browser with `start_driver`.
"""
import functools, http.server, os, shutil, sys, tempfile, threading

FLAGS = ["--headless=new", "--no-sandbox", "--autoplay-policy=no-user-gesture-required",
         "--disable-gpu", "--disable-dev-shm-usage"]


def start_driver(extra_flags=(), timeout=120):
    """Headless Chromium (a selenium driver) with the flags an audio page needs and `extra_flags`.
    Exits with 2 when Chromium, its driver or selenium is missing."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        print("python3-selenium is not installed", file=sys.stderr)
        sys.exit(2)
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    if not binary or not os.path.exists(driver_path):
        print("chromium or chromium-driver is not installed", file=sys.stderr)
        sys.exit(2)
    options = webdriver.ChromeOptions()
    for flag in [*FLAGS, *extra_flags]:
        options.add_argument(flag)
    options.binary_location = binary
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    driver.set_script_timeout(timeout)
    return driver


def run_page(files, page, query="", timeout=120):
    """Serves `files` ({name: path}), opens `page` with `query` and returns window.result.
    Exits with 2 when Chromium, its driver or selenium is missing."""
    site = tempfile.mkdtemp(prefix="polyphon-chromium-")
    try:
        for name, path in files.items():
            os.makedirs(os.path.dirname(os.path.join(site, name)), exist_ok=True)
            shutil.copy(path, os.path.join(site, name))

        class Quiet(http.server.SimpleHTTPRequestHandler):
            extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                              ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm"}
            def log_message(self, *args):
                pass

        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=site))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        driver = start_driver(timeout=timeout)
        try:
            driver.get(f"http://127.0.0.1:{server.server_port}/{page}?{query}")
            result = driver.execute_async_script("""
                const done = arguments[arguments.length - 1];
                const poll = () => window.result ? done(window.result) : setTimeout(poll, 50);
                poll();""")
            version = driver.capabilities.get("browserVersion", "?")
        finally:
            driver.quit()
            server.shutdown()
        return result, version
    finally:
        shutil.rmtree(site, ignore_errors=True)

"""What the jam page's Chromium scripts share: headless Chromium on a URL, scripted through
window.jam, and the files they write for the Swift tests to measure.

    page = JamPage(url, out)        # exits 2 when Chromium, chromium-driver or selenium is missing
    page.run("return await jam.loadMIDI(unb64(args[0]));", data)

In the JavaScript bodies: args, sleep(ms), b64(floats), bytes64(bytes), unb64(text), and
captured(c) for what captureOutput gives ({left, right} in base64, from).
"""
import base64, os, sys

# The browser with the flags every Chromium test of the project uses (WebAssembly/test/chromium.py).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "WebAssembly", "test"))
from chromium import start_driver


class JamPage:
    def __init__(self, url, out, timeout=300):
        self.url, self.out = url, out
        self.driver = start_driver(["--hide-scrollbars"], timeout)

    def run(self, body, *args):
        """Runs an async JavaScript body (its arguments as `args`); its value comes back, its
        error is raised."""
        result = self.driver.execute_async_script("""
            const args = Array.from(arguments).slice(0, -1), done = arguments[arguments.length - 1];
            const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
            const bytes64 = (u) => { let s = ""; for (let i = 0; i < u.length; i += 0x8000) s += String.fromCharCode(...u.subarray(i, i + 0x8000)); return btoa(s); };
            const b64 = (floats) => bytes64(new Uint8Array(floats.buffer, floats.byteOffset, floats.byteLength));
            const unb64 = (s) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
            const captured = (c) => ({ left: b64(c.left), right: b64(c.right), from: c.from });
            (async () => { """ + body + """ })().then(done, (e) => done({ error: String(e && e.stack || e) }));""", *args)
        if isinstance(result, dict) and "error" in result:
            raise RuntimeError(result["error"])
        return result

    def viewport(self, width, height, mobile=False):
        """The page's own size (a window's would include the browser's frame)."""
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                    {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})

    def write(self, name, data):
        with open(os.path.join(self.out, name), "wb") as f:
            f.write(data)

    def capture(self, name, result):
        """Writes a capture's left then right channel (32-bit floats)."""
        self.write(name, base64.b64decode(result["left"]) + base64.b64decode(result["right"]))

    def failed(self, error):
        """Reports `error` and the page's last console messages; exit 1."""
        print(f"the page failed: {error}", file=sys.stderr)
        try:
            for entry in self.driver.get_log("browser")[-20:]:
                print(entry.get("message"), file=sys.stderr)
        except Exception:
            pass
        sys.exit(1)

# SPDX-License-Identifier: MIT
"""webdriver.py - the picture tests' one way to drive a real browser.

Headless Chromium through WebDriver (Debian: chromium, chromium-driver,
python3-selenium).  A test script imports it:

    import webdriver    # tests/cli is on PYTHONPATH (pictures-lib.sh's
                        # webdriver runs the script)
    with webdriver.session(1200, 800) as d:
        d.get("file://" + path)
        ...
        webdriver.no_console_errors(d)

or runs it as a command, `python3 webdriver.py check URL`: opens URL,
waits for the page to load, and exits 1 (printing them) when the console
has errors.  Exit 77 (skip) when Selenium or the driver is missing.
"""

import contextlib
import os
import shutil
import sys
import tempfile

SKIP = 77


def available():
    """None when a WebDriver session can be made, else why not."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "python3-selenium missing"
    if not driver_path():
        return "chromedriver missing (Debian: chromium-driver)"
    if not browser_path():
        return "chromium missing"
    return None


def driver_path():
    return shutil.which("chromedriver") or (
        "/usr/bin/chromedriver" if os.path.exists("/usr/bin/chromedriver") else None)


def browser_path():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        p = shutil.which(name)
        if p:
            return p
    return None


@contextlib.contextmanager
def session(width=1200, height=800):
    """A headless Chromium WebDriver session with its own profile
    directory (tests run in parallel), the browser console log kept,
    and pages limited to 60 s."""
    from selenium import webdriver as wd
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="profconv-chrome-")
    opts = wd.ChromeOptions()
    opts.binary_location = browser_path()
    for a in ("--headless", "--no-sandbox", "--disable-gpu",
              "--no-first-run", "--disable-dev-shm-usage",
              "--hide-scrollbars", "--force-device-scale-factor=1",
              "--user-data-dir=" + profile,
              "--window-size=%d,%d" % (width, height)):
        opts.add_argument(a)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    d = wd.Chrome(service=Service(driver_path()), options=opts)
    d.set_page_load_timeout(60)
    d.set_script_timeout(30)
    try:
        yield d
    finally:
        try:
            d.quit()
        finally:
            shutil.rmtree(profile, ignore_errors=True)


def console(d):
    """The browser console entries logged since the last call."""
    return d.get_log("browser")


def console_errors(d):
    return [e for e in console(d) if e.get("level") == "SEVERE"]


def no_console_errors(d, what="page"):
    errs = console_errors(d)
    if errs:
        raise AssertionError("%s: console errors: %s" % (
            what, "; ".join(e.get("message", "") for e in errs)))


def hover(d, element):
    from selenium.webdriver.common.action_chains import ActionChains
    ActionChains(d).move_to_element(element).perform()


_svgcheck = None


def svgcheck():
    """tests/cli/svg-check.py (the pictures' checks, its PNG decoder
    png_pixels among them) as a module: its file name, with a hyphen,
    cannot be imported."""
    global _svgcheck
    if _svgcheck is None:
        import importlib.util
        spec = importlib.util.spec_from_file_location(
            "svgcheck", os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                     "svg-check.py"))
        _svgcheck = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(_svgcheck)
    return _svgcheck


def main(argv):
    why = available()
    if why:
        print(why, file=sys.stderr)
        return SKIP
    if len(argv) != 3 or argv[1] != "check":
        print("usage: webdriver.py check URL", file=sys.stderr)
        return 2
    with session() as d:
        d.get(argv[2])
        errs = console_errors(d)
    for e in errs:
        print(e.get("message", ""))
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

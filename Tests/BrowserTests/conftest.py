"""A real panel on a seeded database with hostile users, and headless Chromium driving it.

Everything runs on 127.0.0.1: the built `admin-panel` serves, Debian's chromium and
chromedriver browse. The staff accounts are made with the panel's own command line; the
admin's second factor is written into the panel's table by this test (its own database).
"""
import hashlib
import hmac
import http.server
import json
import os
import re
import sqlite3
import struct
import subprocess
import tempfile
import threading
import time

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PASSWORD = "browser test password 1"
TOTP_SECRET = "BROWSERTESTKEYBROWSERTESTKEY2345"
STAFF = {"admin": "admin@example.com", "support": "support@example.com", "marketing": "marketing@example.com"}

# Users whose data is as hostile as the app lets it be.
HOSTILE_ID = 990_000
LONG = "Long" * 1250                       # 5,000 characters, no space
EMOJI = "\U0001F600" * 5000                # 5,000 emoji
RTL = "Ahmad\u202egnp.exe"                 # a right-to-left override
MARKUP = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script>'
HOSTILE_NAMES = {HOSTILE_ID + 1: LONG, HOSTILE_ID + 2: EMOJI, HOSTILE_ID + 3: RTL, HOSTILE_ID + 4: MARKUP, HOSTILE_ID + 5: "   "}


def totp(secret, at=None):
    # The panel keeps the key as text and uses its UTF-8 bytes (the app gets them in base32).
    key = secret.encode("utf-8")
    counter = struct.pack(">Q", int((at or time.time()) // 30))
    digest = hmac.new(key, counter, hashlib.sha1).digest()
    offset = digest[-1] & 15
    return "%06d" % ((struct.unpack(">I", digest[offset:offset + 4])[0] & 0x7FFFFFFF) % 1_000_000)


def binary():
    path = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, check=True, capture_output=True,
                          text=True).stdout.strip()
    executable = os.path.join(path, "admin-panel")
    if not os.path.exists(executable):
        subprocess.run(["swift", "build", "--product", "admin-panel"], cwd=ROOT, check=True)
    return executable


class RefusingProvider(http.server.BaseHTTPRequestHandler):
    """A provider on 127.0.0.1 that trusts no key, as Google's OAuth and APNs answer a key
    they do not know: every send is a credentials problem, so a launched campaign pauses with
    the reason and nothing reaches a phone."""

    def do_POST(self):
        self.rfile.read(int(self.headers.get("content-length") or 0))
        if self.path == "/token":
            status, body = 400, {"error": "invalid_grant", "error_description": "Invalid JWT Signature."}
        else:
            status, body = 403, {"reason": "InvalidProviderToken"}
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


def provider_options(folder):
    """Both providers configured with keys made here for this run, pointed at a RefusingProvider:
    the panel counts and launches only to providers it has credentials for."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), RefusingProvider)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    rsa = subprocess.run(["openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"],
                         check=True, capture_output=True, text=True).stdout
    account = os.path.join(folder, "service-account.json")
    with open(account, "w") as f:
        json.dump({"type": "service_account", "project_id": "browser-test", "private_key_id": "k1", "private_key": rsa,
                   "client_email": "panel@browser-test.iam.gserviceaccount.com", "token_uri": base + "/token"}, f)
    p8 = os.path.join(folder, "apns.p8")
    subprocess.run(["openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", p8],
                   check=True, capture_output=True)
    return ["--fcm-service-account", account, "--fcm-base-url", base, "--apns-key", p8, "--apns-key-id", "ABCDE12345",
            "--apns-team-id", "TEAM123456", "--apns-topic", "com.example.expiry", "--apns-base-url", base]


def add_hostile_users(db_path):
    db = sqlite3.connect(db_path)
    stamp = "2026-01-01 00:00:00"
    for user_id, name in HOSTILE_NAMES.items():
        db.execute("INSERT INTO users (id, email, password_hash, display_name, created_at, last_active_at)"
                   " VALUES (?, ?, 'x', ?, ?, NULL)", (user_id, f"hostile{user_id}@odd.test", name, stamp))
        for item in (LONG, EMOJI, RTL, MARKUP, "Milk"):
            db.execute("INSERT INTO food_items (user_id, name, category, storage, quantity, expiry_date, created_at, updated_at)"
                       " VALUES (?, ?, 'Dairy', 'Pantry', ?, '2026-12-01', ?, ?)", (user_id, item, item[:300], stamp, stamp))
        db.execute("INSERT INTO documents (user_id, doc_type, title, number, expiry_date, created_at, updated_at)"
                   " VALUES (?, 'passport', ?, 'P1234567', '2027-01-01', ?, ?)", (user_id, LONG, stamp, stamp))
        db.execute("INSERT INTO activity_events (user_id, kind, detail, platform, created_at) VALUES (?, 'login', ?, 'ios', ?)",
                   (user_id, MARKUP, stamp))
    db.commit()
    db.close()


@pytest.fixture(scope="session")
def panel():
    executable = binary()
    folder = tempfile.mkdtemp(prefix="panel-browser-")
    db_path = os.path.join(folder, "app.sqlite")
    subprocess.run([executable, "seed", "--db", db_path, "--users", "300"], check=True, capture_output=True)
    add_hostile_users(db_path)
    for role, email in STAFF.items():
        subprocess.run([executable, "admin", "create", "--db", db_path, "--email", email, "--role", role],
                       input=PASSWORD + "\n", text=True, check=True, capture_output=True)
    db = sqlite3.connect(db_path)
    (admin_id,) = db.execute("SELECT id FROM panel_admins WHERE email = ?", (STAFF["admin"],)).fetchone()
    db.execute("INSERT INTO panel_two_factor (admin_id, secret, confirmed_at) VALUES (?, ?, '2026-01-01 00:00:00')",
               (admin_id, TOTP_SECRET))
    db.commit()
    db.close()
    log = open(os.path.join(folder, "server.log"), "w+")
    # From another folder: the styles must come from the build, not from the checkout.
    # Marketing adds test users only from these domains: the ones the tests' test users use.
    server = subprocess.Popen([executable, "serve", "--db", db_path, "--port", "0",
                               "--test-user-domain", "odd.test", "--test-user-domain", "subdomain.example.test",
                               # Journeys evaluated every 2 seconds, so that test_journeys sees entries come.
                               "--journey-interval", "2"]
                              + provider_options(folder),
                              cwd=folder, stdout=log, stderr=log)
    port = None
    for _ in range(600):
        log.seek(0)
        match = re.search(r"panel listening on 127\.0\.0\.1:(\d+)", log.read())
        if match:
            port = int(match.group(1))
            break
        assert server.poll() is None, "the panel stopped before listening"
        time.sleep(0.1)
    assert port, "the panel never said where it listens"
    yield {"base": f"http://127.0.0.1:{port}", "admin_id": admin_id, "db": db_path}
    server.terminate()
    assert server.wait(timeout=20) == 0


@pytest.fixture(scope="session")
def browser():
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1366,900"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


def wait_until_gone(driver, page):
    """Waits until `page` (the old <html>) is gone. Chromedriver sometimes reports a node of a
    document being replaced with an inspector error rather than as stale: gone all the same."""
    def gone(_):
        try:
            page.is_enabled()
            return False
        except (StaleElementReferenceException, WebDriverException):
            return True
    WebDriverWait(driver, 20).until(gone)


def submit(driver):
    """Clicks the form's button and waits for the next page: a click returns before it loads."""
    page = driver.find_element(By.TAG_NAME, "html")
    driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
    wait_until_gone(driver, page)


def sign_in(driver, base, role):
    driver.delete_all_cookies()
    driver.get(base + "/login")
    driver.find_element(By.NAME, "email").send_keys(STAFF[role])
    driver.find_element(By.NAME, "password").send_keys(PASSWORD)
    submit(driver)
    if "/login/code" in driver.current_url:
        # A code is good once: wait for a step no earlier sign-in used.
        used = getattr(sign_in, "last_step", None)
        while int(time.time() // 30) == used:
            time.sleep(1)
        sign_in.last_step = int(time.time() // 30)
        driver.find_element(By.NAME, "code").send_keys(totp(TOTP_SECRET))
        submit(driver)
    notices = [element.text for element in driver.find_elements(By.CSS_SELECTOR, ".notice")]
    assert "/login" not in driver.current_url, f"{role} did not get in: {driver.current_url} {notices}"

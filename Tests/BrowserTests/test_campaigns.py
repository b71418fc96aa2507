"""A campaign from a template to the phones, in a browser: `admin-panel demo` with its
device simulator (fake FCM and APNs on 127.0.0.1, and apps that write receipts), signed in
with the marketing account the demo prints once."""
import os
import re
import subprocess
import tempfile
import time

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import Select, WebDriverWait

from conftest import binary, submit, wait_until_gone
from test_pages import violations


@pytest.fixture(scope="module")
def demo():
    executable = binary()
    folder = tempfile.mkdtemp(prefix="panel-demo-")
    log = open(os.path.join(folder, "demo.log"), "w+")
    # From another folder: styles and templates come from the build.
    server = subprocess.Popen([executable, "demo", "--db", os.path.join(folder, "demo.sqlite"), "--users", "400", "--port", "0",
                               "--consent-window-seconds", "20"],
                              cwd=folder, stdout=log, stderr=log)
    port = password = None
    for _ in range(900):
        log.seek(0)
        text = log.read()
        match = re.search(r"panel listening on 127\.0\.0\.1:(\d+)", text)
        found = re.search(r"marketing: marketing@example\.com\s+password: (\S+)", text)
        if match and found:
            port, password = int(match.group(1)), found.group(1)
            break
        assert server.poll() is None, f"the demo stopped before listening:\n{text}"
        time.sleep(0.1)
    assert port and password, "the demo never said where it listens and what the marketing password is"
    yield {"base": f"http://127.0.0.1:{port}", "password": password}
    server.terminate()
    assert server.wait(timeout=20) == 0


def counts(driver):
    cells = {}
    for element in driver.find_elements(By.CSS_SELECTOR, "table [data-count]"):
        cells[element.get_attribute("data-count")] = int(element.text.replace(",", ""))
    return cells


def test_compose_from_a_template_preview_confirm_send_and_watch_the_counts_arrive_live(demo, browser):
    base = demo["base"]
    browser.set_window_size(1366, 900)
    browser.delete_all_cookies()
    browser.get(base + "/login")
    assert "device simulator" in browser.find_element(By.CLASS_NAME, "banner").text
    browser.find_element(By.NAME, "email").send_keys("marketing@example.com")
    browser.find_element(By.NAME, "password").send_keys(demo["password"])
    submit(browser)

    browser.get(base + "/campaigns/new")
    assert violations(browser) == []
    Select(browser.find_element(By.ID, "template")).select_by_value("expiring-soon")
    title = browser.find_element(By.ID, "title")
    assert "{{display_name}}" in title.get_attribute("value"), "choosing a template fills its English text"
    assert "payload bytes" in browser.find_element(By.ID, "payload-count").text
    Select(browser.find_element(By.NAME, "deep_link")).select_by_value("expirytracker://items/expiring")
    page = browser.find_element(By.TAG_NAME, "html")
    browser.find_element(By.CSS_SELECTOR, "#composer button[type=submit]").click()
    wait_until_gone(browser, page)

    # The audience is counted in the background; the page refreshes itself until it is.
    link = WebDriverWait(browser, 60).until(
        expected_conditions.presence_of_element_located((By.LINK_TEXT, "Continue to the confirmation")))
    reachable = int(browser.find_element(By.ID, "reachable-devices").text.replace(",", ""))
    assert reachable > 0
    notification = browser.find_element(By.CLASS_NAME, "notification-title").text
    assert "{{" not in notification and notification, "the preview is filled for a real recipient"
    assert violations(browser) == []
    link.click()

    heading = browser.find_element(By.TAG_NAME, "h1").text
    assert f"to {reachable:,} devices?" in heading
    assert violations(browser) == []
    typed = browser.find_elements(By.NAME, "typed_count")
    if typed:
        typed[0].send_keys(str(reachable))
    page = browser.find_element(By.TAG_NAME, "html")
    browser.find_element(By.CSS_SELECTOR, "form.actions button[type=submit]").click()
    wait_until_gone(browser, page)
    assert "Launched" in browser.find_element(By.CSS_SELECTOR, ".notice[role=status]").text

    # From here the page is never reloaded: a mark set now would be gone after a reload.
    browser.execute_script("window.__stillThisPage = true")
    deadline = time.time() + 90
    seen = {}
    while time.time() < deadline:
        seen = counts(browser)
        settled = seen.get("accepted", 0) + seen.get("failed", 0) + seen.get("dead", 0) + seen.get("unknown", 0)
        if seen.get("total") == reachable and settled + seen.get("waiting", 0) == reachable and seen.get("received", 0) > 0:
            break
        time.sleep(0.5)
    assert browser.execute_script("return window.__stillThisPage === true"), "the page reloaded"
    assert seen.get("total") == reachable, seen
    assert seen.get("queued") == 0 and seen.get("sending") == 0, seen
    assert seen.get("accepted", 0) > 0 and seen.get("received", 0) > 0, f"the simulated phones confirmed nothing: {seen}"
    assert seen.get("accepted") + seen.get("failed") + seen.get("dead") + seen.get("unknown") + seen.get("waiting") == reachable, seen
    assert "Live" in browser.find_element(By.ID, "live-note").text
    # The status and its actions follow too: the page was rendered while the audience was
    # being frozen, when only cancelling made sense.
    status = browser.find_element(By.ID, "status-badge").text
    assert status in ("sending", "finished"), status
    pause = browser.find_element(By.CSS_SELECTOR, "form[action$='/pause']")
    assert pause.is_displayed() == (status == "sending")
    assert violations(browser) == []
    errors = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    assert errors == [], errors

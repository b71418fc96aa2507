"""A campaign's life as marketing lives it: cancel asks first and a cancelled campaign offers
no pause or resume; a sent campaign duplicated into a draft, the draft edited; another draft
deleted; test users and the preview's recipient, language and platform. The panel's
providers here trust none of its keys, so a launched campaign stops at once with the reason
(a credentials problem pauses it). With SCREENSHOT_DIR set, each page is saved."""
import os
import re
import sqlite3

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import Select, WebDriverWait

from conftest import sign_in, submit, wait_until_gone
from test_pages import violations


def shot(browser, name):
    folder = os.environ.get("SCREENSHOT_DIR")
    if folder:
        height = browser.execute_script("return document.documentElement.scrollHeight")
        width = browser.execute_script("return window.innerWidth")
        browser.set_window_size(max(width, 390), min(height + 120, 8000))
        browser.save_screenshot(os.path.join(folder, f"campaign-{name}.png"))
        browser.set_window_size(max(width, 390), 900)


def click_and_wait(browser, element):
    page = browser.find_element(By.TAG_NAME, "html")
    element.click()
    wait_until_gone(browser, page)


def compose(browser, base, title, body, name=""):
    browser.get(base + "/campaigns/new")
    if name:
        browser.find_element(By.ID, "name").send_keys(name)
    browser.find_element(By.ID, "title").send_keys(title)
    browser.find_element(By.ID, "body").send_keys(body)
    Select(browser.find_element(By.NAME, "plan")).select_by_value("premium")
    click_and_wait(browser, browser.find_element(By.CSS_SELECTOR, "#composer button[type=submit]"))
    return int(re.search(r"/campaigns/(\d+)", browser.current_url).group(1))


def status_of(db_path, campaign):
    db = sqlite3.connect(db_path)
    try:
        return db.execute("SELECT status FROM panel_campaigns WHERE id = ?", (campaign,)).fetchone()[0]
    finally:
        db.close()


def test_cancel_asks_first_duplicate_edit_and_delete(panel, browser):
    base = panel["base"]
    browser.set_window_size(1366, 900)
    sign_in(browser, base, "marketing")

    # A launched campaign: its providers refuse the panel's keys, so it stops (paused) with the reason.
    sent = compose(browser, base, "Spring <b>sale</b>", "Hi {{display_name}}", name="Spring 2027, wave 1")
    link = WebDriverWait(browser, 60).until(
        expected_conditions.presence_of_element_located((By.LINK_TEXT, "Continue to the confirmation")))
    # The preview switches to another platform and language on request.
    Select(browser.find_element(By.NAME, "platform")).select_by_value("android")
    click_and_wait(browser, browser.find_element(By.CSS_SELECTOR, "form.preview-switcher button"))
    assert "on Android" in browser.find_element(By.CSS_SELECTOR, ".phone figcaption").text
    assert browser.find_elements(By.CSS_SELECTOR, "figure.phone.android")
    shot(browser, "draft")
    link = browser.find_element(By.LINK_TEXT, "Continue to the confirmation")
    click_and_wait(browser, link)
    click_and_wait(browser, browser.find_element(By.CSS_SELECTOR, "form.actions button[type=submit]"))
    WebDriverWait(browser, 30).until(lambda _: status_of(panel["db"], sent) in ("paused", "sending"))

    browser.get(base + f"/campaigns/{sent}")
    # No pause or resume on a draft; on a launched one only what its status allows is shown.
    cancel = browser.find_element(By.CSS_SELECTOR, f"a[href='/campaigns/{sent}/cancel']")
    assert cancel.is_displayed()
    click_and_wait(browser, cancel)
    # Asked, not done: a page of its own says what went out and what will not.
    assert browser.current_url.endswith(f"/campaigns/{sent}/cancel")
    assert browser.find_element(By.TAG_NAME, "h1").text == f"Cancel campaign #{sent}?"
    assert "will not be sent" in browser.find_element(By.ID, "ask-unsent").text
    assert status_of(panel["db"], sent) != "cancelled"
    assert violations(browser) == []
    shot(browser, "cancel-ask")
    click_and_wait(browser, browser.find_element(By.CSS_SELECTOR, "form.actions button[type=submit]"))
    assert status_of(panel["db"], sent) == "cancelled"
    assert "Cancelled" in browser.find_element(By.CSS_SELECTOR, ".notice[role=status]").text
    assert browser.find_element(By.ID, "status-badge").text == "cancelled"
    for action in ("pause", "resume", "cancel"):
        assert not browser.find_elements(By.CSS_SELECTOR, f"[action$='/{action}'], a[href$='/{action}']"), action
    assert "sent," in browser.find_element(By.ID, "campaign-progress").text
    shot(browser, "cancelled")

    # Duplicate the sent campaign into a draft, and edit the draft.
    click_and_wait(browser, browser.find_element(By.CSS_SELECTOR, f"form[action='/campaigns/{sent}/duplicate'] button"))
    copy = int(re.search(r"/campaigns/(\d+)", browser.current_url).group(1))
    assert copy != sent and "a copy" in browser.find_element(By.CSS_SELECTOR, ".notice[role=status]").text
    assert not browser.find_elements(By.CSS_SELECTOR, "[action$='/pause'], [action$='/resume']"), "a draft offers no pause or resume"
    click_and_wait(browser, browser.find_element(By.LINK_TEXT, "Edit the draft"))
    assert browser.find_element(By.ID, "title").get_attribute("value") == "Spring <b>sale</b>"
    name = browser.find_element(By.ID, "name")
    assert name.get_attribute("value") == "Copy of Spring 2027, wave 1"
    name.clear()
    name.send_keys("Spring 2027, wave 2")
    title = browser.find_element(By.ID, "title")
    title.clear()
    title.send_keys("Spring sale, last days")
    assert violations(browser) == []
    click_and_wait(browser, browser.find_element(By.CSS_SELECTOR, "#composer button[type=submit]"))
    assert browser.current_url.split("?")[0].endswith(f"/campaigns/{copy}")
    assert "Spring 2027, wave 2" in browser.find_element(By.TAG_NAME, "h1").text
    assert "Spring sale, last days" in browser.find_element(By.CSS_SELECTOR, ".facts").text

    # Delete another draft: asked first, then gone from the list.
    doomed = compose(browser, base, "Doomed draft", "b", name="To be deleted")
    browser.get(base + f"/campaigns/{doomed}")
    click_and_wait(browser, browser.find_element(By.CSS_SELECTOR, f"a[href='/campaigns/{doomed}/delete']"))
    assert browser.find_element(By.TAG_NAME, "h1").text == f"Delete draft #{doomed}?"
    click_and_wait(browser, browser.find_element(By.CSS_SELECTOR, "form.actions button[type=submit]"))
    assert browser.current_url.split("?")[0].endswith("/campaigns")
    assert "To be deleted" not in browser.find_element(By.TAG_NAME, "main").text
    assert "Spring 2027, wave 2" in browser.find_element(By.TAG_NAME, "main").text

    # The list filters by status.
    browser.get(base + "/campaigns?status=cancelled")
    text = browser.find_element(By.TAG_NAME, "main").text
    assert "Spring 2027, wave 1" in text and "wave 2" not in text
    assert violations(browser) == []
    shot(browser, "list")

    # Test users: added by email, then offered on the draft's test send. One has an address
    # long enough to stretch a phone's page (the test plays the backend and writes it).
    long_email = "a.rather.long.address.for.a.test.user.of.the.panel@subdomain.example.test"
    db = sqlite3.connect(panel["db"])
    db.execute("INSERT INTO users (id, email, password_hash, display_name, created_at) VALUES (995001, ?, 'x', 'Tess', '2026-01-01 00:00:00')",
               (long_email,))
    db.execute("INSERT INTO devices (user_id, platform, push_provider, push_token, push_permission, created_at, last_seen_at)"
               " VALUES (995001, 'android', 'fcm', 'long-email-token', 'granted', '2026-01-01', '2026-11-01')")
    db.commit()
    db.close()
    for email in ("hostile990004@odd.test", long_email):
        browser.get(base + "/campaigns/test-users")
        browser.find_element(By.NAME, "email").send_keys(email)
        click_and_wait(browser, browser.find_element(By.CSS_SELECTOR, "form[action='/campaigns/test-users'] button[type=submit]"))
    assert "hostile990004@odd.test" in browser.find_element(By.TAG_NAME, "table").text
    assert violations(browser) == []
    shot(browser, "test-users")
    browser.get(base + f"/campaigns/{copy}")
    options = [o.text for o in Select(browser.find_element(By.NAME, "user")).options]
    assert any("hostile990004@odd.test" in o for o in options)
    assert not browser.find_elements(By.CSS_SELECTOR, "input[name=email]"), "the test send takes no email"
    # On a phone nothing is wider than the window: the draft, the list and the test users.
    browser.set_window_size(390, 900)
    for path in (f"/campaigns/{copy}", "/campaigns", "/campaigns/test-users", f"/campaigns/{sent}"):
        browser.get(base + path)
        wide = browser.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
        assert wide <= 0, f"{path} is {wide} px wider than the window"
    shot(browser, "draft-phone")
    browser.set_window_size(1366, 900)
    assert browser.execute_script("return window.__pwned") is None
    errors = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    assert errors == [], errors

"""Support opens a profile, reads the reachability verdict, follows a finding to its evidence,
and opens the user's reminders: axe-clean and inside the window on a laptop and a phone."""
import datetime
import sqlite3

import pytest
from selenium.webdriver.common.by import By

from conftest import MARKUP, sign_in
from test_pages import violations

USER_ID = 995_000
SENTENCE = "Reminders reach this user on 1 of 2 devices; campaign pushes reach none: marketing consent withdrawn."


@pytest.fixture(scope="module")
def reach_user(panel):
    """A user whose phone can get a push and whose tablet cannot, who withdrew marketing
    consent, with a late reminder for an item named with markup."""
    seen = (datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(days=1)).strftime("%Y-%m-%d %H:%M:%S")
    db = sqlite3.connect(panel["db"], timeout=10)
    db.execute("INSERT OR IGNORE INTO users (id, email, password_hash, display_name, timezone, created_at)"
               " VALUES (?, 'reach@odd.test', 'x', ?, 'Asia/Tokyo', '2026-01-01 00:00:00')", (USER_ID, MARKUP))
    db.execute("INSERT OR IGNORE INTO notification_settings (user_id, marketing_opt_in, quiet_start, quiet_end, daily_time)"
               " VALUES (?, 0, '22:00', '08:00', '07:30')", (USER_ID,))
    db.execute("INSERT OR IGNORE INTO devices (id, user_id, platform, push_provider, push_token, push_permission, app_version,"
               " os_version, created_at, last_seen_at) VALUES (?, ?, 'ios', 'apns', 'REACH-BROWSER-abc123', 'granted', '3.2.1',"
               " 'iOS 18.1', '2026-01-01 00:00:00', ?)", (USER_ID * 10, USER_ID, seen))
    db.execute("INSERT OR IGNORE INTO devices (id, user_id, platform, push_provider, push_token, push_permission, created_at,"
               " last_seen_at) VALUES (?, ?, 'android', 'fcm', NULL, 'denied', '2026-01-01 00:00:00', ?)",
               (USER_ID * 10 + 1, USER_ID, seen))
    db.execute("INSERT OR IGNORE INTO food_items (id, user_id, name, expiry_date, created_at, updated_at)"
               " VALUES (?, ?, ?, '2030-01-01', '2026-01-01 00:00:00', '2026-01-01 00:00:00')", (USER_ID, USER_ID, MARKUP))
    yesterday = (datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(days=1)).strftime("%Y-%m-%d 09:00:00")
    db.execute("INSERT INTO reminders (user_id, item_kind, item_id, days_before, scheduled_for, status, sent_at)"
               " VALUES (?, 'food', ?, 1, ?, 'sent', datetime(?, '+5 minutes'))", (USER_ID, USER_ID, yesterday, yesterday))
    db.commit()
    db.close()
    return USER_ID


def in_view(browser, element_id):
    return browser.execute_script(
        "const r = document.getElementById(arguments[0]).getBoundingClientRect();"
        " return r.top >= -1 && r.top < window.innerHeight;", element_id)


@pytest.mark.parametrize("width", [1366, 390])
def test_support_reads_the_verdict_and_follows_a_finding_to_its_evidence(panel, browser, reach_user, width):
    browser.set_window_size(width, 900)
    sign_in(browser, panel["base"], "support")
    browser.get(panel["base"] + f"/users/{reach_user}")
    assert browser.find_element(By.CSS_SELECTOR, "#reachability .verdict").text == SENTENCE
    findings = browser.find_elements(By.CSS_SELECTOR, "#reachability .findings li")
    consent = next(f for f in findings if "Marketing consent withdrawn" in f.text)
    assert "Blocks" in consent.text and "marketing_opt_in: off" in consent.text
    quiet = next(f for f in findings if "Quiet hours 22:00 to 08:00" in f.text)
    assert "May not" in quiet.text and "07:30" in quiet.text
    assert not in_view(browser, "settings"), "the evidence is further down the page"
    consent.find_element(By.LINK_TEXT, "See notification settings").click()
    assert browser.current_url.endswith("#settings")
    assert in_view(browser, "settings"), "the link brings its evidence into view"
    assert "Marketing pushes" in browser.find_element(By.ID, "settings").text
    # A device finding leads to the devices, where the denied tablet is.
    device = next(f for f in browser.find_elements(By.CSS_SELECTOR, "#reachability .findings li") if "cannot get a push" in f.text)
    device.find_element(By.LINK_TEXT, "See devices").click()
    assert in_view(browser, "devices") and "denied" in browser.find_element(By.ID, "devices").text
    assert browser.execute_script("return window.__pwned === undefined")
    scroll, inner = browser.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    assert scroll <= inner, f"the profile at {width} px is {scroll} px wide"
    assert violations(browser) == []


def test_the_users_reminders_page_is_clean_and_refuses_what_it_does_not_know(panel, browser, reach_user):
    browser.set_window_size(1366, 900)
    sign_in(browser, panel["base"], "support")
    browser.get(panel["base"] + f"/users/{reach_user}")
    browser.find_element(By.LINK_TEXT, "All of this user's reminders, with their local times").click()
    assert browser.current_url.endswith(f"/users/{reach_user}/reminders")
    text = browser.find_element(By.TAG_NAME, "main").text
    assert "Page 1 of 1" in text and "late by 5 min" in text and "Their time (Asia/Tokyo)" in text
    assert browser.execute_script("return window.__pwned === undefined")
    assert violations(browser) == []
    for query, sentence in [("status=bogus", "There is no reminder status “bogus”"), ("page=0", "There is no page “0”")]:
        browser.get(panel["base"] + f"/users/{reach_user}/reminders?{query}")
        assert sentence in browser.find_element(By.TAG_NAME, "main").text
        assert browser.find_elements(By.CSS_SELECTOR, "table") == []
        assert violations(browser) == []

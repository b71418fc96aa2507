"""A win-back journey as marketing makes it (issue 34): the form, the dry run of the next
24 hours, activation, then users crossing the trigger enter it and the report fills. The
test plays the app's backend: it moves a few users' last_active_at so that they cross
"inactive for 7 days" within seconds (the panel evaluates every 2 seconds here). Axe-clean
at 1366 and 390 pixels."""
import re
import sqlite3
from datetime import datetime, timedelta, timezone

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from conftest import sign_in, wait_until_gone
from test_pages import violations


def backend_time(moment):
    return moment.strftime("%Y-%m-%d %H:%M:%S")


def move_users(db_path, ids, last_active):
    db = sqlite3.connect(db_path)
    try:
        db.executemany("UPDATE users SET last_active_at = ? WHERE id = ?", [(backend_time(last_active), i) for i in ids])
        db.commit()
    finally:
        db.close()


def reachable_users(db_path, count):
    db = sqlite3.connect(db_path)
    try:
        rows = db.execute("""
            SELECT u.id FROM users u JOIN devices d ON d.user_id = u.id LEFT JOIN notification_settings s ON s.user_id = u.id
            WHERE u.status = 'active' AND d.push_permission = 'granted' AND d.push_token <> ''
              AND COALESCE(s.push_enabled, 1) = 1 AND COALESCE(s.marketing_opt_in, 1) = 1
            GROUP BY u.id ORDER BY u.id LIMIT ?""", (count,)).fetchall()
        return [r[0] for r in rows]
    finally:
        db.close()


def click_and_wait(browser, element):
    page = browser.find_element(By.TAG_NAME, "html")
    element.click()
    wait_until_gone(browser, page)


def axe_at_both_widths(browser):
    for width in (1366, 390):
        browser.set_window_size(width, 900)
        assert violations(browser) == [], f"{browser.current_url} at {width}px"
    browser.set_window_size(1366, 900)


def test_a_win_back_journey_dry_run_activation_entries_and_report(panel, browser):
    base, db_path = panel["base"], panel["db"]
    browser.set_window_size(1366, 900)
    sign_in(browser, base, "marketing")
    users = reachable_users(db_path, 12)
    assert len(users) >= 6, "the seed has reachable users"
    now = datetime.now(timezone.utc).replace(tzinfo=None)
    # Half of them cross within the next 24 hours: the dry run counts them.
    move_users(db_path, users[:6], now - timedelta(days=7) + timedelta(hours=3))

    browser.get(base + "/journeys")
    axe_at_both_widths(browser)
    browser.get(base + "/journeys/new")
    axe_at_both_widths(browser)
    browser.find_element(By.ID, "name").send_keys("Win-back <7 days>")
    Select(browser.find_element(By.NAME, "trigger")).select_by_value("inactive_days")
    days = browser.find_element(By.ID, "trigger_days")
    days.clear()
    days.send_keys("7")
    browser.find_element(By.ID, "title").send_keys("We miss you")
    browser.find_element(By.ID, "body").send_keys("Your pantry misses you too")
    click_and_wait(browser, browser.find_element(By.CSS_SELECTOR, "#journey-form button[type=submit]"))
    journey = int(re.search(r"/journeys/(\d+)", browser.current_url).group(1))

    # The dry run, computed in the background: the page refreshes itself until it is there.
    WebDriverWait(browser, 60).until(lambda b: "Would be sent the push" in b.page_source)
    dry_run = browser.find_element(By.ID, "dry-run").text
    crossing = int(re.search(r"Cross the trigger\s+([\d,]+)", dry_run).group(1).replace(",", ""))
    assert crossing >= 6, dry_run
    axe_at_both_widths(browser)

    click_and_wait(browser, browser.find_element(By.CSS_SELECTOR, f"form[action='/journeys/{journey}/activate'] button"))
    assert browser.find_element(By.ID, "journey-status").text == "active"

    # The other half cross a few seconds from now: the next evaluations enter them.
    move_users(db_path, users[6:], datetime.now(timezone.utc).replace(tzinfo=None) - timedelta(days=7) + timedelta(seconds=3))

    def entered(b):
        b.get(f"{base}/journeys/{journey}")
        cells = b.find_elements(By.CSS_SELECTOR, "#report-total td")
        return cells and int(cells[1].text.replace(",", "")) > 0
    # The report is kept for 30 seconds: up to two of its builds.
    WebDriverWait(browser, 90, poll_frequency=3).until(entered)
    assert "Entered so far" in browser.page_source
    axe_at_both_widths(browser)
    browser.get(base + "/journeys")
    assert f"/journeys/{journey}" in browser.page_source
    axe_at_both_widths(browser)

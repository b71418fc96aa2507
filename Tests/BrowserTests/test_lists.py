"""Lists staff scan: the campaign list sorted both ways by its Created heading (the first
rows swap), paged Next then Previous back to the same first row (and Back keeps the page),
and a user's items paged both ways and searched by name, at a laptop's 1366 px and a
phone's 390 px (where the headings are hidden and the sort links show above the rows),
with no serious or critical axe-core violation."""
import sqlite3

import pytest
from selenium.webdriver.common.by import By

from conftest import sign_in, wait_until_gone
from test_pages import violations

WHALE_ID = 3  # DemoSeeder.whaleUserID: about 19,000 food items in use


def add_campaigns(db_path, count):
    db = sqlite3.connect(db_path)
    (have,) = db.execute("SELECT COUNT(*) FROM panel_campaigns WHERE kind = 'campaign' AND deleted_at IS NULL").fetchone()
    for index in range(max(0, count - have)):
        db.execute("INSERT INTO panel_campaigns (title, body, ttl_seconds, segment, status, created_at, name)"
                   " VALUES ('List test', 'Body', 3600, '{}', 'draft', '2026-11-01 10:00:00', ?)", (f"List test {index}",))
    db.commit()
    db.close()


def click(browser, element):
    page = browser.find_element(By.TAG_NAME, "html")
    element.click()
    wait_until_gone(browser, page)


def first_campaign(browser):
    return browser.find_element(By.CSS_SELECTOR, "table.data tbody tr td a").get_attribute("href")


def sort_link(browser, width):
    # At 1366 px the heading is the link; at 390 px the headings are hidden and the link above the rows shows.
    selector = "th a.sort" if width > 640 else ".sort-links a"
    link = browser.find_element(By.CSS_SELECTOR, selector)
    assert link.is_displayed(), f"the sort link is visible at {width} px"
    return link


def pager_link(browser, words):
    links = [a for a in browser.find_elements(By.CSS_SELECTOR, "nav.pager a") if a.text == words]
    return links[0] if links else None


@pytest.mark.parametrize("width", [1366, 390])
def test_the_campaign_list_sorts_both_ways_and_pages_back_and_forth(panel, browser, width):
    base = panel["base"]
    add_campaigns(panel["db"], 60)
    browser.set_window_size(width, 900)
    sign_in(browser, base, "marketing")
    browser.get(base + "/campaigns")
    assert browser.find_element(By.CSS_SELECTOR, "th[aria-sort]").get_attribute("aria-sort") == "descending"
    newest = first_campaign(browser)
    assert pager_link(browser, "Previous page") is None, "no Previous on the first page"
    assert violations(browser) == [], f"{browser.current_url} at {width}px"

    click(browser, sort_link(browser, width))
    assert browser.find_element(By.CSS_SELECTOR, "th[aria-sort]").get_attribute("aria-sort") == "ascending"
    oldest = first_campaign(browser)
    assert oldest != newest, "the first rows swap"
    assert int(oldest.rsplit("/", 1)[1]) < int(newest.rsplit("/", 1)[1])
    click(browser, sort_link(browser, width))
    assert first_campaign(browser) == newest, "sorted back, the newest is first again"

    click(browser, pager_link(browser, "Next page"))
    second = first_campaign(browser)
    assert second != newest and "after=" in browser.current_url
    assert violations(browser) == [], f"{browser.current_url} at {width}px"
    click(browser, pager_link(browser, "Previous page"))
    assert first_campaign(browser) == newest, "Previous brings back the first page"
    browser.back()
    assert first_campaign(browser) == second, "Back keeps the page from its URL"


@pytest.mark.parametrize("width", [1366, 390])
def test_a_users_items_page_both_ways_and_are_searched_by_name(panel, browser, width):
    base = panel["base"]
    browser.set_window_size(width, 900)
    sign_in(browser, base, "support")
    browser.get(base + f"/users/{WHALE_ID}#items")
    section = browser.find_element(By.ID, "items")
    first = section.find_element(By.CSS_SELECTOR, "tbody tr").text
    assert " of " in section.find_element(By.CSS_SELECTOR, ".pager-range").text
    click(browser, pager_link(browser, "Next page"))
    assert browser.find_element(By.CSS_SELECTOR, "#items tbody tr").text != first
    click(browser, pager_link(browser, "Previous page"))
    assert browser.find_element(By.CSS_SELECTOR, "#items tbody tr").text == first
    assert pager_link(browser, "Previous page") is None
    assert violations(browser) == [], f"{browser.current_url} at {width}px"

    # A word from the first item's name finds items that hold it, and only those.
    name = browser.find_element(By.CSS_SELECTOR, "#items tbody td[data-label=Name]").text
    word = max(name.split(), key=len)
    box = browser.find_element(By.CSS_SELECTOR, "#items input[name=name]")
    box.send_keys(word)
    click(browser, browser.find_element(By.CSS_SELECTOR, "#items form button[type=submit]"))
    names = [cell.text for cell in browser.find_elements(By.CSS_SELECTOR, "#items tbody td[data-label=Name]")]
    assert names and all(word.lower() in shown.lower() for shown in names), names
    box = browser.find_element(By.CSS_SELECTOR, "#items input[name=name]")
    box.clear()
    box.send_keys("no item is called this")
    click(browser, browser.find_element(By.CSS_SELECTOR, "#items form button[type=submit]"))
    assert "No food item of this user matches" in browser.find_element(By.ID, "items").text
    assert browser.find_elements(By.CSS_SELECTOR, "#items table") == []
    assert violations(browser) == [], f"{browser.current_url} at {width}px"


@pytest.mark.parametrize("width", [1366, 390])
def test_the_activity_list_sorts_by_sign_up_both_ways_and_pages_back(panel, browser, width):
    base = panel["base"]
    browser.set_window_size(width, 900)
    sign_in(browser, base, "support")
    browser.get(base + "/activity?bucket=inactive&sort=sign_up")
    first = browser.find_element(By.CSS_SELECTOR, "table.data tbody tr td a").get_attribute("href")
    links = [a for a in browser.find_elements(By.CSS_SELECTOR, "th a.sort" if width > 640 else ".sort-links a")
             if a.text.startswith("Signed up")]
    assert links and links[0].is_displayed()
    click(browser, links[0])
    assert "dir=asc" in browser.current_url
    oldest = browser.find_element(By.CSS_SELECTOR, "table.data tbody tr td a").get_attribute("href")
    assert oldest != first, "the first rows swap"
    assert violations(browser) == [], f"{browser.current_url} at {width}px"
    click(browser, pager_link(browser, "Next page"))
    assert browser.find_element(By.CSS_SELECTOR, "table.data tbody tr td a").get_attribute("href") != oldest
    click(browser, pager_link(browser, "Previous page"))
    assert browser.find_element(By.CSS_SELECTOR, "table.data tbody tr td a").get_attribute("href") == oldest

"""Every page, as each role sees it, checked by axe-core; hostile profiles checked for width,
scripts and console errors on a laptop and on a phone."""
import pytest
from axe_selenium_python import Axe

from conftest import HOSTILE_ID, HOSTILE_NAMES, sign_in

PAGES = [
    "/", "/users", "/users?by=email&q=hostile", f"/users/{HOSTILE_ID + 1}", f"/users/{HOSTILE_ID + 3}?kind=document",
    f"/users/{HOSTILE_ID + 4}/activity", "/users/99999999", "/activity", "/activity?bucket=never", "/activity?bucket=Never",
    "/audit", "/admins", "/admins/sign-in-failures", "/admins/{admin_id}/disable", "/account/sessions",
    "/account/password", "/account/two-factor", "/campaigns", "/campaigns/new", "/settings/global-control",
    "/no/such/page",
]
BLOCKING = ("serious", "critical")


def violations(driver):
    axe = Axe(driver)
    axe.inject()
    results = axe.run()
    return [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3]) for v in results["violations"] if v["impact"] in BLOCKING]


def test_the_sign_in_pages_have_no_serious_violation(panel, browser):
    browser.delete_all_cookies()
    browser.get(panel["base"] + "/login")
    assert violations(browser) == []
    browser.get(panel["base"] + "/login?ended=1")
    assert violations(browser) == []


@pytest.mark.parametrize("role", ["support", "marketing", "admin"])
def test_every_page_as_each_role_has_no_serious_violation(panel, browser, role):
    browser.set_window_size(1366, 900)
    sign_in(browser, panel["base"], role)
    found = {}
    for page in PAGES:
        browser.get(panel["base"] + page.format(admin_id=panel["admin_id"]))
        problems = violations(browser)
        if problems:
            found[page] = problems
    assert found == {}, f"{role}: {found}"


@pytest.mark.parametrize("width", [1366, 390])
def test_hostile_profiles_stay_in_the_window_run_nothing_and_log_no_error(panel, browser, width):
    browser.set_window_size(width, 900)
    sign_in(browser, panel["base"], "support")
    browser.get_log("browser")  # what the sign-in logged is not the profiles'
    pages = [f"/users/{user_id}" for user_id in HOSTILE_NAMES] + [f"/users/{user_id}?kind=document" for user_id in HOSTILE_NAMES]
    pages += ["/activity?bucket=never", "/users?by=email&q=hostile"] + [f"/users/{user_id}/activity" for user_id in HOSTILE_NAMES]
    for page in pages:
        browser.get(panel["base"] + page)
        scroll, inner = browser.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
        assert scroll <= inner, f"{page} at {width} px is {scroll} px wide"
        assert browser.execute_script("return window.__pwned === undefined"), f"a script ran on {page}"
        errors = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
        assert errors == [], f"{page}: {errors}"
    # A blank name falls back to the email; a right-to-left override is shown, not obeyed.
    browser.get(panel["base"] + f"/users/{HOSTILE_ID + 5}")
    assert browser.find_element("css selector", "h1").text == f"hostile{HOSTILE_ID + 5}@odd.test"
    browser.get(panel["base"] + f"/users/{HOSTILE_ID + 3}")
    assert "\u202e" not in browser.find_element("css selector", "h1").text

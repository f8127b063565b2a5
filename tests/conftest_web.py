"""Helpers of the browser tests (tests/test_web.py): the server, the browser, and a person's
decisions made by clicks alone."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect

TIMEOUT_MS = 30_000
BROWSER_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
CARD = re.compile(r"^[AKQJ2-7][SHDC]$")
SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"

expect.set_options(timeout=TIMEOUT_MS)


def chromium_path() -> str | None:
    """The Chromium to drive: $SOBEDESCE_BROWSER, else Debian's."""
    wanted = os.environ.get("SOBEDESCE_BROWSER")
    if wanted:
        return wanted if Path(wanted).exists() or shutil.which(wanted) else None
    return "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None


@contextmanager
def running_server(data: Path, *options: str) -> Iterator[str]:
    """A real ``sobedesce serve`` on a free port, with these further options; yields its URL."""
    process = subprocess.Popen(
        [sys.executable, "-m", "sobedesce", "serve", "--port", "0", "--data", str(data), "--pace", "0", *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert process.stdout is not None
        first = process.stdout.readline()
        match = re.search(r"(http://\S+/)", first)
        assert match, f"the server did not say where it listens: {first!r}"
        yield match.group(1)
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def new_page(browser: Browser, *, speed: str = "off", **context_options: Any) -> Page:
    """A page in a fresh context (its own storage: a different person), animations as asked;
    the caller opens the address, after hooking what it needs."""
    context = browser.new_context(**context_options)
    context.add_init_script(
        f"localStorage.getItem('sobedesce.speed') || localStorage.setItem('sobedesce.speed', '{speed}')"
    )
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    page.on("pageerror", lambda error: print("page error:", error))
    return page


def register(page: Page, name: str) -> None:
    page.fill("#name", name)
    page.click("#name-form button[type=submit]")
    expect(page.locator("#playing-as, #table")).to_be_visible()


def quick_match(page: Page, rules: str = "classic", level: str = "easy") -> None:
    page.check(f"input[data-key=quickRules-{rules}]")
    page.check(f"input[data-key=level-{level}]")
    page.click("#play-now")
    expect(page.locator("#table")).to_be_visible()


def wait_for_turn(page: Page) -> str:
    """Wait until it is this page's turn ("mine") or the match is over ("over")."""
    page.wait_for_selector("#table[data-turn=mine], #match-over", state="attached", timeout=TIMEOUT_MS)
    return "over" if page.locator("#match-over").count() else "mine"


def phase(page: Page) -> str:
    return page.locator("#table").get_attribute("data-phase") or ""


def version(page: Page) -> str:
    return page.locator("#table").get_attribute("data-v") or ""


def hand(page: Page) -> list[str]:
    return [card for card in page.locator("#hand .card").evaluate_all("els => els.map(e => e.dataset.card)")]


def decide(page: Page) -> str:
    """Make this page's pending decision by clicks: the first suit, keep (or swap one card),
    the first legal card. Returns the phase it decided in, once the server has taken it."""
    before = version(page)
    current = phase(page)
    if current == "trump":
        page.locator("#actions [data-action^=trump-]").first.click()
    elif current == "exchange":
        keep = page.locator("#actions [data-action=keep]")
        if keep.count():
            keep.click()
        else:
            page.locator("#hand .card").first.click()
            page.click("#actions [data-action=exchange]")
    else:
        page.locator("#hand .card.legal").first.click()
    page.wait_for_function("v => document.querySelector('#table').dataset.v !== v", arg=before, timeout=TIMEOUT_MS)
    return current


def decide_until(page: Page, wanted: str) -> None:
    """Decide (as :func:`decide`) until it is this page's turn in the phase ``wanted``."""
    while not (wait_for_turn(page) == "mine" and phase(page) == wanted):
        decide(page)


def screenshot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / name), full_page=True)

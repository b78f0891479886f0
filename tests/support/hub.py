"""Helpers of the JupyterHub course test (tests/hub/): a student in Chromium, code run in a
user's server, and the time each step of the route takes.

A student's steps go through the page as a student works: the hub's login form, the *Nbgrader*
menu's *Assignment List*, its buttons, the notebook's editor (select all, then the answer inserted
as a paste inserts it), the file browser. Code "in a student's server" is executed by a kernel that
server starts, over the Jupyter server's REST API and kernel websocket, with an API token of
that student: it runs as that student, in their server's mount namespace, as a notebook would.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
import uuid
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "test-artifacts" / "hub"


class StepTimes:
    """Wall time of each named step, in the order they end (steps may overlap: threads), and the
    wall time from the first step's start; written to test-artifacts/hub/timings.json."""

    def __init__(self) -> None:
        self.steps: list[tuple[str, float]] = []
        self.start = time.monotonic()

    @contextlib.contextmanager
    def __call__(self, name: str):
        start = time.monotonic()
        try:
            yield
        finally:
            self.steps.append((name, time.monotonic() - start))

    def run(self, name: str, fn, *args, **kwargs):
        """``fn(*args, **kwargs)`` timed as the step ``name`` (for a thread pool)."""
        with self(name):
            return fn(*args, **kwargs)

    def wall(self) -> float:
        return time.monotonic() - self.start

    def table(self) -> str:
        width = max((len(n) for n, _ in self.steps), default=10)
        lines = [f"{name:<{width}}  {seconds:7.1f} s" for name, seconds in self.steps]
        lines.append(f"{'wall time, first step to last (some steps overlap)':<{width}}  {self.wall():7.1f} s")
        return "\n".join(lines)

    def write(self) -> Path:
        import os

        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / "timings.json"
        path.write_text(json.dumps({"load_average": os.getloadavg()[0], "wall_seconds": round(self.wall(), 1),
                                    "steps": [{"step": n, "seconds": round(s, 1)} for n, s in self.steps]},
                                   indent=1) + "\n")
        return path


# ---------------------------------------------------------------------------------------------
# a student in Chromium
# ---------------------------------------------------------------------------------------------
def log_in(page, hub_url: str, user: str) -> None:
    """The hub's login form (any password: the test's DummyAuthenticator), then the spawn."""
    page.goto(f"{hub_url}/hub/login")
    page.fill("#username_input", user)
    page.fill("#password_input", "course-test")
    page.click("#login_submit")


def wait_for_lab(page, user: str, timeout_ms: int = 240_000) -> None:
    page.wait_for_url(f"**/user/{user}/lab**", timeout=timeout_ms)
    page.wait_for_selector(".lm-MenuBar-itemLabel", timeout=timeout_ms)


def open_menu(page, label: str) -> list[str]:
    """Open the menu bar's ``label`` menu; the labels of its items."""
    menu = page.locator(".lm-Menu.lm-MenuBar-menu")
    for _ in range(3):   # a click on a menu bar that still holds a closing menu may only close it
        page.locator(".lm-MenuBar-itemLabel", has_text=label).first.click()
        try:
            menu.wait_for(timeout=5_000)
            break
        except Exception:  # noqa: BLE001 - Playwright's timeout: click again
            continue
    menu.wait_for(timeout=5_000)
    return [t.strip() for t in menu.locator(".lm-Menu-itemLabel").all_inner_texts() if t.strip()]


def open_assignments(page) -> list[str]:
    """Nbgrader > Assignment List (the *Assignments* tab), loaded; the Nbgrader menu's items."""
    items = open_menu(page, "Nbgrader")
    page.locator(".lm-Menu.lm-MenuBar-menu .lm-Menu-itemLabel", has_text="Assignment List").click()
    page.wait_for_selector("#assignments", timeout=60_000)
    page.wait_for_function("""() => ['released', 'fetched', 'submitted'].every(k =>
        document.querySelector(`#${k}_assignments_list_loading`).hidden)""", timeout=120_000)
    return items


def listed(page, section: str) -> list[str]:
    """Assignment names listed under ``section`` (released, fetched, submitted)."""
    return [t.strip() for t in page.locator(f"#{section}_assignments_list > .list_item .item_name").all_inner_texts()]


def row(page, section: str, assignment: str):
    return page.locator(f"#{section}_assignments_list > .list_item", has_text=assignment).first


def answer(page, stub_start: str, code: str) -> str:
    """Replace the code of the cell that starts with ``stub_start`` by ``code`` (select all, then
    insert, as a paste does); the cell's text afterwards."""
    editor = page.locator(".jp-NotebookPanel .jp-CodeCell .cm-content", has_text=stub_start).first
    editor.scroll_into_view_if_needed()
    editor.click()
    page.keyboard.press("Control+a")
    page.keyboard.insert_text(code)
    return editor.inner_text()


def dialog_text(page, timeout_ms: int = 300_000) -> str:
    dialog = page.locator(".jp-Dialog")
    dialog.wait_for(timeout=timeout_ms)
    return dialog.inner_text()


def close_dialog(page) -> None:
    page.locator(".jp-Dialog .jp-Dialog-button").last.click()
    page.locator(".jp-Dialog").wait_for(state="detached")


# ---------------------------------------------------------------------------------------------
# code run in a user's server
# ---------------------------------------------------------------------------------------------
async def _execute(server: str, token: str, code: str, timeout: float) -> str:
    from tornado.httpclient import AsyncHTTPClient, HTTPRequest
    from tornado.websocket import websocket_connect

    headers = {"Authorization": f"token {token}"}
    client = AsyncHTTPClient()
    reply = await client.fetch(f"{server}/api/kernels", method="POST", body="{}", headers=headers,
                               request_timeout=timeout)
    kernel = json.loads(reply.body)["id"]
    ws_url = f"ws{server[4:]}/api/kernels/{kernel}/channels"
    ws = await websocket_connect(HTTPRequest(ws_url, headers=headers, request_timeout=timeout))
    msg_id, out = uuid.uuid4().hex, []
    ws.write_message(json.dumps({
        "header": {"msg_id": msg_id, "msg_type": "execute_request", "username": "test",
                   "session": uuid.uuid4().hex, "date": "", "version": "5.3"},
        "parent_header": {}, "metadata": {}, "channel": "shell", "buffers": [],
        "content": {"code": code, "silent": False, "store_history": False, "user_expressions": {},
                    "allow_stdin": False, "stop_on_error": True}}))
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            raw = await asyncio.wait_for(ws.read_message(), deadline - time.monotonic())
            if raw is None:
                raise RuntimeError("the kernel's websocket closed")
            msg = json.loads(raw)
            if msg.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            kind, content = msg["msg_type"], msg["content"]
            if kind == "stream":
                out.append(content["text"])
            elif kind == "error":
                out.append(f"{content['ename']}: {content['evalue']}")
            elif kind == "status" and content["execution_state"] == "idle":
                return "".join(out)
        raise TimeoutError(f"no reply from the kernel in {timeout:.0f} s")
    finally:
        ws.close()
        await client.fetch(f"{server}/api/kernels/{kernel}", method="DELETE", headers=headers,
                           raise_error=False)


def execute(server: str, token: str, code: str, timeout: float = 180) -> str:
    """Run ``code`` in a new kernel of the Jupyter server at ``server`` (its base URL through the
    hub, e.g. http://127.0.0.1:PORT/user/ana) with ``token``; its stdout, stderr and error."""
    from concurrent.futures import ThreadPoolExecutor

    # a thread of its own: Playwright's sync API keeps an event loop running in this one
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, _execute(server, token, code, timeout)).result()

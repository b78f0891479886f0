"""The session of every grading kernel: what a kernel sends can never stop grading.

A student's kernel decides what it sends: an output nested 100,000 deep (``jupyter_client``'s
JSON decoder then raises ``RecursionError`` and nbgrader abandons the whole notebook), a huge
message, an output nbformat refuses (``{"application/x-new": 1}``: nbclient's
``output_from_msg`` raised for the whole notebook). :class:`SafeSession` decodes each message
defensively: one it cannot decode or use (too deep, too large, not JSON, not a valid output, a
reply without a status) becomes a display output saying so, in the probe's wire format too
(:data:`grader.wire.MIME`), so that a probe cell that sent it is scored as ``malformed_result``
(:mod:`grader.autograde.scoring`) -- that exercise only; grading goes on. Used by the kernel
managers of :mod:`grader.infra.kernels`; the bounds on what is *kept* of the outputs are the
autograde preprocessor :class:`grader.autograde.bounds.BoundOutputs`.
"""

from __future__ import annotations

from jupyter_client.session import Session

from grader.wire import MIME

__all__ = ["MAX_DEPTH", "MAX_MESSAGE_BYTES", "SafeSession"]

MAX_MESSAGE_BYTES = 64 << 20  # a message's content larger than this is not decoded
MAX_DEPTH = 200               # deeper JSON is not decoded (the probe wire format needs ~10)


def _too_deep(data: bytes, limit: int = MAX_DEPTH) -> bool:
    """Whether the JSON text ``data`` nests deeper than ``limit`` (a scan, no recursion)."""
    if data.count(b"[") + data.count(b"{") <= limit:  # the usual message: no scan
        return False
    depth = 0
    in_string = escaped = False
    for byte in data:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):
            depth += 1
            if depth > limit:
                return True
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return False


_OUTPUTS = ("display_data", "execute_result", "stream", "error", "update_display_data")


def _check_content(msg: dict) -> None:
    """ValueError where what a kernel sent would stop nbclient: an output that nbformat refuses
    to make a notebook output of (``output_from_msg`` validates it, and nbclient let that error
    end the whole notebook), a reply without a status."""
    msg_type = msg.get("msg_type") or msg.get("header", {}).get("msg_type")
    body = msg.get("content")
    if not isinstance(body, dict):
        raise ValueError("a message whose content is not an object")
    if msg_type in _OUTPUTS:
        from nbformat.v4 import output_from_msg

        shown = "display_data" if msg_type == "update_display_data" else msg_type
        try:
            output_from_msg({"header": {"msg_type": shown}, "content": body})
        except Exception as exc:  # noqa: BLE001 - NotebookValidationError, KeyError, ...
            raise ValueError(f"an output that is not a notebook output ({type(exc).__name__})") from None
    elif msg_type and msg_type.endswith("_reply") and not isinstance(body.get("status"), str):
        raise ValueError("a reply without a status")


class SafeSession(Session):
    """A :class:`jupyter_client.session.Session` whose received messages cannot stop grading."""

    def deserialize(self, msg_list, content=True, copy=True):
        signature = msg_list[0] if msg_list else b""
        signature = bytes(getattr(signature, "bytes", signature))
        replayed = signature in getattr(self, "digest_history", ())
        try:
            if content and len(msg_list) >= 5:
                frame = msg_list[4]
                raw = frame if isinstance(frame, bytes) else getattr(frame, "bytes", bytes(frame))
                if len(raw) > MAX_MESSAGE_BYTES:
                    raise ValueError(f"a message of {len(raw)} bytes (at most {MAX_MESSAGE_BYTES})")
                if _too_deep(raw):
                    raise ValueError(f"a message nested deeper than {MAX_DEPTH} levels")
            for frame in msg_list[1:4]:  # header, parent header, metadata
                raw = frame if isinstance(frame, bytes) else getattr(frame, "bytes", b"")
                if len(raw) > MAX_MESSAGE_BYTES or _too_deep(raw):
                    raise ValueError("a message whose header or metadata is too large or too deep")
            msg = super().deserialize(msg_list, content=content, copy=copy)
            if content:
                _check_content(msg)
            return msg
        except (RecursionError, ValueError, MemoryError, UnicodeDecodeError, TypeError) as exc:
            why = str(exc)[:200] or type(exc).__name__
            # the first reading may have recorded the signature (replay protection): this second
            # look at the same message, for its header only, must not count as a replay (a
            # message seen before this call is one, and stays refused)
            seen = not replayed and signature in getattr(self, "digest_history", ())
            try:
                if seen:
                    self.digest_history.discard(signature)
                msg = super().deserialize(msg_list, content=False, copy=copy)
            except Exception:  # noqa: BLE001 - not even its header: a message for no one
                return {"header": {"msg_type": "malformed", "msg_id": ""}, "msg_id": "",
                        "msg_type": "malformed", "parent_header": {}, "metadata": {},
                        "content": {}, "buffers": []}
            finally:
                if seen:
                    self.digest_history.add(signature)
            msg["metadata"] = {}
            if msg.get("msg_type") in ("display_data", "execute_result", "stream", "error",
                                       "update_display_data"):
                msg["msg_type"] = msg["header"]["msg_type"] = "display_data"
                # in the probe's format too: a probe cell that sent it is malformed_result
                msg["content"] = {"data": {"text/plain": f"[output dropped: {why}]",
                                           MIME: {"malformed": why}},
                                  "metadata": {"grader_dropped": why}, "transient": {}}
            else:
                msg["content"] = {"status": "error", "ename": "MalformedMessage", "evalue": why,
                                  "traceback": []}
            return msg

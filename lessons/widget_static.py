"""The last state of a lesson's widgets as plain HTML, for the static site (offline readers).

nbconvert embeds the widgets' state in a page and the reader's browser draws them with the
Jupyter widgets manager, loaded from a CDN: offline, every widget (lesson 5's Newton plot, the
tangent explorer) is a blank box.  Each widget view therefore gets a snapshot next to it, drawn
here from the same state: Output and Image widgets' figures as ``data:`` images, text, sliders,
dropdowns and check boxes as "label: value", boxes as their children.  Online, once the manager
has drawn the live widget, the page's CSS hides the snapshot (``.jupyter-widgets:has(
.widget-subarea) + .minitape-widget-static``).
"""

from __future__ import annotations

import html

STATE = "application/vnd.jupyter.widget-state+json"
VIEW = "application/vnd.jupyter.widget-view+json"
CSS = """
.minitape-widget-static { margin: 4px 0 8px 0; }
.minitape-widget-static .w-row { display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: flex-start; }
.minitape-widget-static .w-control { font-family: system-ui, sans-serif; font-size: 13px; color: #333; }
.minitape-widget-static img { max-width: 100%; }
.jupyter-widgets:has(.widget-subarea) + .minitape-widget-static { display: none; }
"""


def _ref(value):
    return value[len("IPY_MODEL_"):] if isinstance(value, str) and value.startswith("IPY_MODEL_") else None


def _output_html(output: dict) -> str:
    data = output.get("data", {})
    if output.get("output_type") == "stream":
        return f"<pre>{html.escape(''.join(output.get('text', '')))}</pre>"
    if "image/png" in data:
        return f'<img alt="figure" src="data:image/png;base64,{"".join(data["image/png"]).strip()}">'
    if "image/svg+xml" in data:
        return "".join(data["image/svg+xml"])
    if "text/html" in data:
        return "".join(data["text/html"])
    if "text/plain" in data:
        return f"<pre>{html.escape(''.join(data['text/plain']))}</pre>"
    return ""


def _render(model_id: str, models: dict, depth: int = 0) -> str:
    model = models.get(model_id)
    if model is None or depth > 20:
        return ""
    name = model.get("model_name", "")
    state = model.get("state", {})
    label = html.escape(str(state.get("description", "") or ""))
    if name == "OutputModel":
        return "".join(_output_html(o) for o in state.get("outputs", []))
    if name == "ImageModel":  # its picture travels as a base64 buffer beside the state
        data = next((b.get("data") for b in model.get("buffers", [])
                     if b.get("path") == ["value"] and b.get("encoding") == "base64"), None)
        kind = {"svg": "svg+xml"}.get(state.get("format", "png"), state.get("format", "png"))
        return f'<img alt="figure" src="data:image/{html.escape(kind)};base64,{data}">' if data else ""
    if "children" in state:
        inner = "".join(_render(_ref(c), models, depth + 1) for c in state.get("children", []) if _ref(c))
        row = " w-row" if name in ("HBoxModel", "GridBoxModel") else ""
        return f'<div class="w-box{row}">{inner}</div>'
    if name in ("HTMLModel", "HTMLMathModel"):
        return f'<div class="w-control">{state.get("value", "")}</div>'
    if name == "LabelModel":
        return f'<div class="w-control">{html.escape(str(state.get("value", "")))}</div>'
    if name == "ButtonModel":
        return f'<div class="w-control"><button disabled>{label}</button></div>'
    if "index" in state and "_options_labels" in state:
        labels = state.get("_options_labels") or []
        index = state.get("index")
        chosen = labels[index] if isinstance(index, int) and 0 <= index < len(labels) else ""
        return f'<div class="w-control">{label} <b>{html.escape(str(chosen))}</b></div>'
    if "value" in state and ("Slider" in name or "Text" in name or "Checkbox" in name or "Toggle" in name):
        value = state["value"]
        if isinstance(value, float):
            value = f"{value:.4g}"
        return f'<div class="w-control">{label} <b>{html.escape(str(value))}</b></div>'
    return ""


def snapshots(nb) -> dict[str, str]:
    """``{model_id: HTML}`` for every widget view shown in ``nb``'s outputs."""
    models = (nb.get("metadata", {}).get("widgets", {}).get(STATE, {}) or {}).get("state", {})
    out = {}
    for cell in nb.get("cells", []):
        for output in cell.get("outputs", []):
            view = output.get("data", {}).get(VIEW)
            if isinstance(view, dict) and view.get("model_id"):
                body = _render(view["model_id"], models)
                if body:
                    out[view["model_id"]] = body
    return out

"""``narrator graph``: a script's track graph as Mermaid or Graphviz DOT text.

Nodes are tracks labelled with their heading; edges are links labelled with their ``when``.
The start track and the endings are marked; a link to an undefined track shows a "missing" node.
"""

from __future__ import annotations

from narrator.script.model import Script


def _nodes(script: Script) -> list[tuple[str, str, str]]:
    """(id, label, kind) per node; kind is "start", "ending", "track" or "missing"."""
    nodes = [(t.id, t.heading, "start" if t.id == script.start else "ending" if t.ending else "track")
             for t in script.tracks]
    known = {t.id for t in script.tracks}
    missing = dict.fromkeys(link.to for t in script.tracks for link in t.links if link.to not in known)
    return nodes + [(name, f"missing: {name}", "missing") for name in missing]


def _edges(script: Script) -> list[tuple[str, str, str]]:
    return [(t.id, link.to, link.when) for t in script.tracks for link in t.links]


def to_mermaid(script: Script) -> str:
    """A Mermaid flowchart (paste it into a Markdown ```mermaid block)."""
    key = {name: f"n{i}" for i, (name, _, _) in enumerate(_nodes(script), 1)}

    def text(s: str) -> str:
        return '"' + s.replace('"', "#quot;") + '"'

    shapes = {"start": "([{}])", "ending": "[[{}]]", "track": "[{}]", "missing": "{{{{{}}}}}"}
    out = ["flowchart TD"]
    for name, label, kind in _nodes(script):
        out.append(f"    {key[name]}{shapes[kind].format(text(label))}:::{kind}")
    for source, target, when in _edges(script):
        arrow = f"-->|{text(when)}|" if when else "-->"
        out.append(f"    {key[source]} {arrow} {key[target]}")
    out += ["    classDef start stroke-width:3px",
            "    classDef ending stroke-width:3px,stroke-dasharray:4 2",
            "    classDef track stroke-width:1px",
            "    classDef missing stroke:#c00,color:#c00"]
    return "\n".join(out) + "\n"


def to_dot(script: Script) -> str:
    """A Graphviz digraph (``dot -Tsvg``)."""

    def text(s: str) -> str:
        return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'

    styles = {"start": "style=bold", "ending": "peripheries=2", "track": "",
              "missing": "color=red, fontcolor=red"}
    out = [f"digraph {text(script.game)} {{", "    node [shape=box];"]
    for name, label, kind in _nodes(script):
        attrs = ", ".join(filter(None, [f"label={text(label)}", styles[kind]]))
        out.append(f"    {text(name)} [{attrs}];")
    for source, target, when in _edges(script):
        label = f" [label={text(when)}]" if when else ""
        out.append(f"    {text(source)} -> {text(target)}{label};")
    out.append("}")
    return "\n".join(out) + "\n"

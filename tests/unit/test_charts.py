"""The reports' charts: static SVG that a page holds inline, whatever the labels say."""

from __future__ import annotations

import re

from graph.webpage.charts import Line, Point, interval_chart, sweep_chart


def test_a_label_with_dollar_signs_is_text_and_the_svg_needs_no_network() -> None:
    svg = interval_chart([Point("cost $5 / $10 setup", 0.4, 0.2, 0.6, 12), Point("alone", 0.5)], zero_line=True)
    assert svg.startswith('<svg role="img"') and "cost $5 / $10 setup  n=12" in svg
    assert "http://" not in svg and "<metadata" not in svg


def test_a_sweep_given_out_of_order_is_drawn_in_the_order_of_its_values() -> None:
    line = Line("recall", [0.8, 0.3, 0.5], [0.7, 0.2, 0.4], [0.9, 0.4, 0.6])
    svg = sweep_chart("k", ["8", "3", "5"], [line])
    ticks = re.findall(r">(\d)</text>", svg)
    assert ticks[:3] == ["3", "5", "8"]

"""The contrast of a text against what is behind it, measured in the page (WCAG 1.4.3).

axe leaves text over the felt's gradient and over translucent boxes "to review"; this measures
it: the text's colour (with its ``opacity`` and its ancestors') over the box colours behind
it, each composited over the next down to the page, where the felt counts as its lightest
colour stop (the gradient's centre: the worst case for white text).
"""

from __future__ import annotations

from playwright.sync_api import Locator

FELT_LIGHTEST = (15, 74, 36)  # where no gradient is found: the felt's darkest colour

CONTRAST_JS = """(el, felt) => {
  const parse = (c) => {
    const m = c.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return [0, 0, 0, 0];
    const p = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top, bottom) => {
    const a = top[3];
    return [0, 1, 2].map((i) => top[i] * a + bottom[i] * (1 - a)).concat([1]);
  };
  const lum = (c) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  };
  // the element and its ancestors, top down; an opacity dims a box and all inside it
  const chain = [];
  for (let e = el; e && e.nodeType === 1; e = e.parentElement) chain.unshift(e);
  let back = felt.concat([1]);
  let opacity = 1;
  for (const e of chain) {
    const s = getComputedStyle(e);
    opacity *= Number(s.opacity);
    if (s.backgroundImage.includes('gradient')) {  // the felt: its lightest colour stop
      const stops = (s.backgroundImage.match(/rgba?\\([^)]+\\)/g) || []).map(parse);
      if (stops.length) back = stops.reduce((x, y) => (lum(y) > lum(x) ? y : x)).slice(0, 3).concat([1]);
    }
    const bg = parse(s.backgroundColor);
    if (bg[3] > 0) back = over([bg[0], bg[1], bg[2], bg[3] * opacity], back);
  }
  const fg = parse(getComputedStyle(el).color);
  const text = over([fg[0], fg[1], fg[2], fg[3] * opacity], back);
  const [hi, lo] = [lum(text), lum(back)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}"""


def contrast(locator: Locator) -> float:
    """The contrast ratio of ``locator``'s text against its background, as above."""
    return float(locator.evaluate(CONTRAST_JS, list(FELT_LIGHTEST)))


def placeholder_contrast(locator: Locator) -> float:
    """The contrast ratio of a text box's placeholder against the box (``locator``: the input)."""
    return float(
        locator.evaluate(
            "(el, felt) => { const probe = document.createElement('span');"
            " probe.style.color = getComputedStyle(el, '::placeholder').color;"
            " el.parentElement.appendChild(probe);"
            f" const r = ({CONTRAST_JS})(probe, felt); probe.remove(); return r; }}",
            list(FELT_LIGHTEST),
        )
    )

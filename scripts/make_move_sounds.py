"""Write ``assets/card-up.wav`` and ``assets/card-down.wav``, the optional sounds of a move
(components/table/move_sound.py): a card taken (a short rising swish) and a card laid on the
lixo (a soft snap). Synthesised, deterministic (a fixed noise seed), 22.05 kHz mono 16-bit,
about 0.1 s each; run once: ``python scripts/make_move_sounds.py``."""

from __future__ import annotations

import math
import random
import struct
import wave
from pathlib import Path

RATE = 22050
ASSETS = Path(__file__).resolve().parents[1] / "assets"


def _write(name: str, samples: list[float]) -> None:
    with wave.open(str(ASSETS / name), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(b"".join(struct.pack("<h", int(max(-1.0, min(1.0, s)) * 32767)) for s in samples))


def _noise(seconds: float, seed: int) -> list[float]:
    rng = random.Random(seed)
    return [rng.uniform(-1.0, 1.0) for _ in range(int(RATE * seconds))]


def swish() -> list[float]:
    """Noise through a one-pole low-pass opening up, in a rise-and-fall envelope."""
    raw, out, y = _noise(0.11, 7), [], 0.0
    for i, x in enumerate(raw):
        t = i / len(raw)
        a = 0.05 + 0.35 * t
        y += a * (x - y)
        out.append(0.55 * y * math.sin(math.pi * t) ** 1.5)
    return out


def snap() -> list[float]:
    """A short knock (a decaying low tone) under a fast-decaying noise burst."""
    raw, out, y = _noise(0.09, 11), [], 0.0
    for i, x in enumerate(raw):
        t = i / RATE
        y += 0.5 * (x - y)
        out.append(0.6 * y * math.exp(-t * 70) + 0.35 * math.sin(2 * math.pi * 180 * t) * math.exp(-t * 45))
    return out


if __name__ == "__main__":
    _write("card-up.wav", swish())
    _write("card-down.wav", snap())

"""Board images saved for a person to look at, as the renderer tests draw them.

Each goes to ``tests/output/<name>.png`` at full size and to
``tests/output/phone/<name>.png`` scaled to 360 px wide, the width a phone shows it at,
where what must be legible is judged. The folder is git-ignored.
"""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

OUTPUT = Path(__file__).parents[1] / "output"
PHONE_WIDTH = 360


def save_sample(name: str, png: bytes) -> None:
    (OUTPUT / "phone").mkdir(parents=True, exist_ok=True)
    (OUTPUT / f"{name}.png").write_bytes(png)
    image = Image.open(io.BytesIO(png)).convert("RGB")
    height = round(image.height * PHONE_WIDTH / image.width)
    image.resize((PHONE_WIDTH, height), Image.Resampling.LANCZOS).save(
        OUTPUT / "phone" / f"{name}.png"
    )

"""Board images: a game's view in, PNG bytes out.

Renderers see only views (``bot.games``), never game states, so an image cannot show what
its audience may not know. They import nothing but ``bot.games``, Pillow and the standard
library; ``renderers.common`` holds what every game shares (font, palette, PNG encoding).
"""

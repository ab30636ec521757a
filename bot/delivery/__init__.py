"""The delivery wing: every message the bot sends leaves through here.

``deliverer`` sends the stored notices of each audience in order and exactly once,
``presenter`` turns a notice into a message's text and board image, and ``discord_sender``
is the only part that talks to Discord.
"""

"""The delivery wing: every message the bot sends leaves through here.

``deliverer`` sends the stored notices of each audience in order and exactly once, as the
referee announces each stored change; ``presenter`` turns a notice into a message's text
and board image; ``discord_sender`` is the deliverer's way to Discord, and
``discord_answers`` answers a player's own move where they made it. Only those two talk to
Discord.
"""

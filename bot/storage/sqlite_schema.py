"""The SQLite schema: the first tables and every migration since, in order.

PostgreSQL's schema (``bot.storage.postgres_schema``) makes the same changes under the same
numbers in its own dialect, so both stores stand at the same version with the same tables.
"""

from __future__ import annotations

SCHEMA = """
CREATE TABLE IF NOT EXISTS challenges (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    game          TEXT    NOT NULL,
    rules         TEXT    NOT NULL,
    guild_id      INTEGER,
    channel_id    INTEGER NOT NULL,
    challenger_id INTEGER NOT NULL,
    opponent_id   INTEGER NOT NULL,
    message_id    INTEGER,
    status        TEXT    NOT NULL DEFAULT 'open',
    game_id       INTEGER,
    created_at    REAL    NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    game              TEXT    NOT NULL,
    rules             TEXT    NOT NULL,
    seed              INTEGER NOT NULL,
    guild_id          INTEGER,
    channel_id        INTEGER NOT NULL,
    seat0_id          INTEGER NOT NULL,
    seat1_id          INTEGER NOT NULL,
    status            TEXT    NOT NULL,
    ply               INTEGER NOT NULL DEFAULT 0,
    state             TEXT    NOT NULL,
    public_message_id INTEGER,
    winner            INTEGER,
    end_reason        TEXT,
    created_at        REAL    NOT NULL,
    updated_at        REAL    NOT NULL
);
CREATE TABLE IF NOT EXISTS actions (
    game_id    INTEGER NOT NULL REFERENCES games(id),
    ply        INTEGER NOT NULL,
    seat       INTEGER,
    kind       TEXT    NOT NULL,
    text       TEXT    NOT NULL,
    created_at REAL    NOT NULL,
    PRIMARY KEY (game_id, ply)
);
CREATE TABLE IF NOT EXISTS outbox (
    game_id    INTEGER NOT NULL REFERENCES games(id),
    ply        INTEGER NOT NULL,
    notices    TEXT    NOT NULL,
    created_at REAL    NOT NULL,
    PRIMARY KEY (game_id, ply)
);
CREATE INDEX IF NOT EXISTS games_by_status_seat0 ON games (status, seat0_id);
CREATE INDEX IF NOT EXISTS games_by_status_seat1 ON games (status, seat1_id);
CREATE INDEX IF NOT EXISTS games_by_status_guild ON games (status, guild_id);
"""
"""The first schema, as version 1 created it; every later change is a migration below."""

TOLD_COUNTED = """
ALTER TABLE games ADD COLUMN told_seat0 INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN told_seat1 INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN told_channel INTEGER NOT NULL DEFAULT 0;
ALTER TABLE notices ADD COLUMN told INTEGER NOT NULL DEFAULT 0;
UPDATE notices SET told = (
    SELECT count(*) FROM notices AS older
    WHERE older.game_id = notices.game_id AND older.audience = notices.audience
        AND older.ply <= notices.ply
);
UPDATE games SET
    told_seat0 = (SELECT count(*) FROM notices WHERE game_id = games.id AND audience = 0),
    told_seat1 = (SELECT count(*) FROM notices WHERE game_id = games.id AND audience = 1),
    told_channel = (SELECT count(*) FROM notices WHERE game_id = games.id AND audience = -1);
"""
"""Migration 17's tables, in words both databases read alike: each audience's notices
numbered per game (``bot.storage.outbox.Batch.told``), the notices waiting now as they stand."""

NOTICES_BY_TOLD = """
CREATE TABLE notices_by_told (
    game_id    INTEGER NOT NULL REFERENCES games(id),
    audience   INTEGER NOT NULL,
    ply        INTEGER NOT NULL,
    texts      TEXT    NOT NULL,
    final      INTEGER NOT NULL DEFAULT 0,
    claimed    INTEGER NOT NULL DEFAULT 0,
    created_at REAL    NOT NULL,
    told       INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, audience, ply, told)
);
INSERT INTO notices_by_told (game_id, audience, ply, texts, final, claimed, created_at, told)
SELECT game_id, audience, ply, texts, final, claimed, created_at, told FROM notices;
DROP TABLE notices;
ALTER TABLE notices_by_told RENAME TO notices;
"""
"""Migration 18: an audience may be told more than one notice at one ply (a change, then
the channel's note to a player whose DMs are closed, which changes nothing else), so a
notice is known by its number among its audience's too. SQLite changes a primary key by
building the table anew."""

MIGRATIONS: tuple[str, ...] = (
    # 2: setups players keep by name ("save fortress") to load in later games
    """
    CREATE TABLE saved_setups (
        user_id  INTEGER NOT NULL,
        game     TEXT    NOT NULL,
        name     TEXT    NOT NULL,
        text     TEXT    NOT NULL,
        saved_at REAL    NOT NULL,
        PRIMARY KEY (user_id, game, name)
    );
    """,
    # 3: rated games; ratings per player and game; each side's result of every finished
    # game; and who played rated in which server (the server scope of leaderboards)
    """
    ALTER TABLE challenges ADD COLUMN rated INTEGER NOT NULL DEFAULT 1;
    ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 1;
    CREATE TABLE ratings (
        user_id    INTEGER NOT NULL,
        game       TEXT    NOT NULL,
        mu         REAL    NOT NULL,
        sigma      REAL    NOT NULL,
        games      INTEGER NOT NULL,
        wins       INTEGER NOT NULL,
        losses     INTEGER NOT NULL,
        draws      INTEGER NOT NULL,
        streak     INTEGER NOT NULL,
        updated_at REAL    NOT NULL,
        PRIMARY KEY (user_id, game)
    );
    CREATE INDEX ratings_by_game ON ratings (game, mu, sigma);
    CREATE TABLE results (
        game_id      INTEGER NOT NULL REFERENCES games(id),
        seat         INTEGER NOT NULL,
        user_id      INTEGER NOT NULL,
        opponent_id  INTEGER NOT NULL,
        game         TEXT    NOT NULL,
        guild_id     INTEGER,
        score        REAL    NOT NULL,
        rated        INTEGER NOT NULL,
        mu_before    REAL,
        sigma_before REAL,
        mu_after     REAL,
        sigma_after  REAL,
        ended_at     REAL    NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX results_by_player ON results (user_id, ended_at);
    CREATE INDEX results_by_player_game ON results (user_id, game, ended_at);
    CREATE TABLE rated_in_servers (
        guild_id INTEGER NOT NULL,
        game     TEXT    NOT NULL,
        user_id  INTEGER NOT NULL,
        PRIMARY KEY (guild_id, game, user_id)
    ) WITHOUT ROWID;
    """,
    # 4: the ply at which the players to move were last reminded, so each wait reminds once
    """
    ALTER TABLE games ADD COLUMN reminded_ply INTEGER;
    CREATE INDEX games_by_status_updated ON games (status, updated_at);
    """,
    # 5: when the reminder went out, so a loss on time always follows a reminder by the
    # full waiting time, even after the bot was down for longer than both waits
    """
    ALTER TABLE games ADD COLUMN reminded_at REAL;
    """,
    # 6: the players' display names as the challenge found them, for board images
    """
    ALTER TABLE challenges ADD COLUMN challenger_name TEXT NOT NULL DEFAULT '';
    ALTER TABLE challenges ADD COLUMN opponent_name TEXT NOT NULL DEFAULT '';
    ALTER TABLE games ADD COLUMN seat0_name TEXT NOT NULL DEFAULT '';
    ALTER TABLE games ADD COLUMN seat1_name TEXT NOT NULL DEFAULT '';
    """,
    # 7: one open challenge per challenger and opponent (older duplicates of a burst are
    # closed as expired, the first kept), and the index the clock's sweeps read: open
    # challenges by age, and closed ones by age to forget them
    """
    UPDATE challenges SET status = 'expired'
    WHERE status = 'open' AND id NOT IN (
        SELECT MIN(id) FROM challenges WHERE status = 'open' GROUP BY challenger_id, opponent_id
    );
    CREATE UNIQUE INDEX challenges_open_per_pair ON challenges (challenger_id, opponent_id)
        WHERE status = 'open';
    CREATE INDEX challenges_by_status_age ON challenges (status, created_at);
    """,
    # 8: the clock's two questions each read a partial index holding only the games that
    # can answer it: not yet reminded of their wait (by when they last changed), or
    # reminded of it (by when), so a sweep over thousands of idle games reads none of them
    # whole and skips those still within their wait
    """
    DROP INDEX games_by_status_updated;
    CREATE INDEX games_awaiting_reminder ON games (updated_at)
        WHERE status = 'active' AND reminded_ply IS NOT ply;
    CREATE INDEX games_awaiting_forfeit ON games (reminded_at)
        WHERE status = 'active' AND reminded_ply IS ply;
    """,
    # 9: small facts the bot keeps about itself, like the hash of the last command sync
    """
    CREATE TABLE bot_facts (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
    ) WITHOUT ROWID;
    """,
    # 10: provable fairness: the seals made when play began, and every announcement kept
    # for good (the outbox forgets what it delivered), so a game can be exported and checked
    """
    CREATE TABLE seals (
        game_id INTEGER NOT NULL REFERENCES games(id),
        ply     INTEGER NOT NULL,
        who     TEXT    NOT NULL,
        salt    TEXT    NOT NULL,
        digest  TEXT    NOT NULL,
        secret  TEXT    NOT NULL,
        PRIMARY KEY (game_id, who)
    );
    ALTER TABLE challenges ADD COLUMN swapped INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE announcements (
        game_id INTEGER NOT NULL REFERENCES games(id),
        ply     INTEGER NOT NULL,
        tidings TEXT    NOT NULL,
        PRIMARY KEY (game_id, ply)
    );
    """,
    # 11: delivery progress per audience: one notice per audience and change, claimed for
    # the message it goes out in, so a retry resends nothing an audience already has; the
    # waiting notices of the old outbox move over (the end of a finished game is marked
    # final, so it is announced once); and the newest direct message read per player
    """
    CREATE TABLE notices (
        game_id    INTEGER NOT NULL REFERENCES games(id),
        audience   INTEGER NOT NULL,
        ply        INTEGER NOT NULL,
        texts      TEXT    NOT NULL,
        final      INTEGER NOT NULL DEFAULT 0,
        claimed    INTEGER NOT NULL DEFAULT 0,
        created_at REAL    NOT NULL,
        PRIMARY KEY (game_id, audience, ply)
    );
    INSERT INTO notices (game_id, audience, ply, texts, final, created_at)
    SELECT outbox.game_id,
           coalesce(json_extract(told.value, '$[0]'), -1),
           outbox.ply,
           json_extract(told.value, '$[1]'),
           games.status = 'finished' AND games.ply = outbox.ply,
           outbox.created_at
    FROM outbox JOIN json_each(outbox.notices) AS told JOIN games ON games.id = outbox.game_id;
    DROP TABLE outbox;
    CREATE TABLE read_dms (
        user_id    INTEGER PRIMARY KEY,
        message_id INTEGER NOT NULL
    );
    """,
    # 12: games against the computer: the level it plays at (NULL for two people)
    """
    ALTER TABLE games ADD COLUMN computer_level TEXT;
    """,
    # 13: moves handed by the process that received them to the workers that play them
    # (used on a shared database; one process on its own file plays its moves at once):
    # where to answer the player, and until when a worker's claim on the move holds
    """
    CREATE TABLE queued_moves (
        id            INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id       INTEGER NOT NULL REFERENCES games(id),
        user_id       INTEGER NOT NULL,
        text          TEXT    NOT NULL,
        reply         TEXT    NOT NULL,
        queued_at     REAL    NOT NULL,
        claimed_until REAL,
        attempts      INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX queued_moves_by_game ON queued_moves (game_id, id);
    """,
    # 14: nothing here: PostgreSQL gains two functions that save a move's round trips; one
    # process on a file has no round trips to save
    """
    SELECT 1;
    """,
    # 15: nothing here: PostgreSQL's function storing a move also claims the notices of
    # backlogs holding nothing else, as a move's transaction here does in its own statements
    """
    SELECT 1;
    """,
    # 16: nothing here: PostgreSQL gains the functions with which a worker claims a queued
    # move with its game's lock and stores it; here no worker plays queued moves
    """
    SELECT 1;
    """,
    # 17: each audience's notices numbered per game, for nonces that count only what the
    # audience was told (the ply counts the players' secret setup edits too); the notices
    # waiting now numbered as they stand
    TOLD_COUNTED,
    # 18: several notices for one audience at one ply, each known by its number too
    NOTICES_BY_TOLD,
)
"""Schema changes in order, each run once in its own transaction (append; never edit).

Migration ``i`` brings a database from version ``i + 1`` to ``i + 2``, so a fresh database
gets ``SCHEMA`` and then every migration, and an old one only those it lacks.
"""

SCHEMA_VERSION = 1 + len(MIGRATIONS)

AWAITING_REMINDER = (
    "SELECT updated_at, id, updated_at FROM games INDEXED BY games_awaiting_reminder"
    " WHERE status = 'active' AND reminded_ply IS NOT ply AND updated_at <= ?"
    " AND (updated_at, id) > (?, ?) ORDER BY updated_at, id LIMIT ?"
)
AWAITING_FORFEIT = (
    "SELECT reminded_at, id, updated_at FROM games INDEXED BY games_awaiting_forfeit"
    " WHERE status = 'active' AND reminded_ply IS ply AND reminded_at <= ?"
    " AND (reminded_at, id) > (?, ?) ORDER BY reminded_at, id LIMIT ?"
)
"""The clock's two questions, each answered from its partial index alone (migration 8).

``INDEXED BY`` makes SQLite refuse the query, rather than quietly scan every game, should
the index ever stop matching it. Parameters: until, then the last wait seen (its moment
and game id) to page on, and how many.
"""
